package account

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
)

// An e-mail change is kept pending, and the login e-mail stays the old one, until the code we send
// to the new address comes back: whoever holds a session cannot move the account to an address
// they do not control, nor lock the owner out with a typo. Kratos cannot send the code itself (it
// only sends to addresses an identity already has), so the code is ours, kept as an HMAC.

// Outbox template types of the e-mails of an e-mail change (also their i18n keys: <type>.subject, <type>.body).
const (
	TemplateEmailChangeCode      = "email_change_code"
	TemplateEmailChangeRequested = "email_change_requested"
	TemplateEmailChanged         = "email_changed"
)

// requestEmailChange stores email as the user's pending e-mail, sends a code to it and tells the
// old address. The caller has checked the address and the recent login.
func (h *Handler) requestEmailChange(c *gin.Context, u identity.User, email string) error {
	ctx := h.ctx(c)
	if ok, retry, err := sendUserLimit.Allow(ctx, "email:"+u.ID.String()); err != nil || !ok {
		return limitError(c, retry, err)
	}
	if ok, retry, err := ratelimit.CodeTo(ctx, email); err != nil || !ok {
		return limitError(c, retry, err)
	}
	code, hash := h.newEmailCode(u.ID)
	if _, err := h.tenants.Directory().Exec(ctx, queries.Get("SaveEmailChange"), u.ID, email, u.Email, u.EmailVerified, hash); err != nil {
		return err
	}
	if err := h.sendEmailCode(c, email, code); err != nil {
		return err
	}
	// An address never verified may be a stranger's (the typo being fixed): it is not told.
	if u.EmailVerified {
		h.notify(c, u.Email, TemplateEmailChangeRequested, email)
	}
	return nil
}

// resendEmailChangeCode sends a new code to the pending address; ok=false when none is pending.
func (h *Handler) resendEmailChangeCode(c *gin.Context, userID uuid.UUID) (bool, error) {
	ctx := h.ctx(c)
	var sentAt time.Time
	var pending string
	err := h.tenants.Directory().QueryRow(ctx, queries.Get("GetEmailChange"), userID).Scan(&pending, &sentAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	if wait := resendGap - time.Since(sentAt); wait > 0 {
		return true, ratelimit.Error(c, wait)
	}
	if ok, retry, err := sendUserLimit.Allow(ctx, "email:"+userID.String()); err != nil || !ok {
		return true, limitError(c, retry, err)
	}
	if ok, retry, err := ratelimit.CodeTo(ctx, pending); err != nil || !ok {
		return true, limitError(c, retry, err)
	}
	code, hash := h.newEmailCode(userID)
	if err := h.tenants.Directory().QueryRow(ctx, queries.Get("ResendEmailChange"), userID, hash).Scan(&pending); err != nil {
		return true, err
	}
	return true, h.sendEmailCode(c, pending, code)
}

// verifyEmailChange checks a code against the pending change and, when it matches, makes the new
// address the login e-mail (verified) and tells the old one. ok=false when no change is pending.
func (h *Handler) verifyEmailChange(c *gin.Context, u identity.User, code string) (bool, error) {
	ctx := h.ctx(c)
	var newEmail, oldEmail string
	var oldVerified bool
	var hash []byte
	var attempts int
	var sentAt time.Time
	err := h.tenants.Directory().QueryRow(ctx, queries.Get("TryEmailChange"), u.ID).
		Scan(&newEmail, &oldEmail, &oldVerified, &hash, &attempts, &sentAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	switch {
	case err != nil:
		return true, err
	case time.Since(sentAt) > codeLifespan:
		return true, apierror.Validation(map[string]string{"code": "code_expired"})
	case attempts > maxAttempts:
		return true, apierror.Validation(map[string]string{"code": "too_many_code_attempts"})
	case !hmac.Equal(hash, h.emailCodeHash(u.ID, code)):
		return true, apierror.Validation(map[string]string{"code": "code_invalid"})
	}
	if err := h.kratos.SetVerifiedEmail(ctx, u.ID, newEmail); errors.Is(err, identity.ErrExists) {
		_, _ = h.tenants.Directory().Exec(ctx, queries.Get("DeleteEmailChange"), u.ID)
		return true, apierror.Validation(map[string]string{"code": "email_taken"})
	} else if err != nil {
		return true, err
	}
	_, _ = h.tenants.Directory().Exec(ctx, queries.Get("DeleteEmailChange"), u.ID)
	_, _ = h.tenants.Directory().Exec(ctx, queries.Get("DeleteVerificationFlow"), u.ID, "email")
	if oldVerified {
		h.notify(c, oldEmail, TemplateEmailChanged, newEmail)
	}
	return true, nil
}

// cancelEmailChange is DELETE /manage/api/user/email_change → 204: the login e-mail stays.
func (h *Handler) cancelEmailChange(c *gin.Context) {
	if _, err := h.tenants.Directory().Exec(h.ctx(c), queries.Get("DeleteEmailChange"), authz.User(c).ID); err != nil {
		apierror.Abort(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// pendingEmail is the address waiting for its code, or nil.
func (h *Handler) pendingEmail(ctx context.Context, userID uuid.UUID) (*string, error) {
	var email string
	var sentAt time.Time
	err := h.tenants.Directory().QueryRow(ctx, queries.Get("GetEmailChange"), userID).Scan(&email, &sentAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &email, err
}

func (h *Handler) newEmailCode(userID uuid.UUID) (code string, hash []byte) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	code = fmt.Sprintf("%06d", n.Int64())
	return code, h.emailCodeHash(userID, code)
}

func (h *Handler) emailCodeHash(userID uuid.UUID, code string) []byte {
	m := hmac.New(sha256.New, h.cfg.Secret)
	m.Write([]byte("email_change:" + userID.String() + ":" + code))
	return m.Sum(nil)
}

func (h *Handler) sendEmailCode(c *gin.Context, to, code string) error {
	l := apierror.Lang(c)
	minutes := int(codeLifespan.Minutes())
	data, _ := json.Marshal(map[string]any{"code": code, "new_email": to, "expires_in_minutes": minutes, "lang": string(l)})
	_, err := h.outbox.Send(h.ctx(c), outbox.Message{
		Recipient: to, MessageType: outbox.TypeEmail, TemplateType: TemplateEmailChangeCode, TemplateData: data, Code: code,
		Subject: i18n.T(l, TemplateEmailChangeCode+".subject"),
		Body:    i18n.T(l, TemplateEmailChangeCode+".body", to, code, minutes),
	})
	if err != nil {
		return &apierror.Error{Status: http.StatusBadGateway, Code: "send_code_failed", Err: err}
	}
	return nil
}

// notify tells the old address about the change (requested or done). A failed notice does not undo
// the change: it stays in the outbox with its error.
func (h *Handler) notify(c *gin.Context, to, template, newEmail string) {
	l := apierror.Lang(c)
	data, _ := json.Marshal(map[string]any{"new_email": newEmail, "lang": string(l)})
	if _, err := h.outbox.Send(h.ctx(c), outbox.Message{
		Recipient: to, MessageType: outbox.TypeEmail, TemplateType: template, TemplateData: data,
		Subject: i18n.T(l, template+".subject"),
		Body:    i18n.T(l, template+".body", newEmail),
	}); err != nil {
		slog.WarnContext(h.ctx(c), "e-mail change notice", "template", template, "error", err)
	}
}
