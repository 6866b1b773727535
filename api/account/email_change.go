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
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
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
func (h *Handler) requestEmailChange(ctx context.Context, u identity.User, email string) error {
	if err := sendUserLimit.Take(ctx, "email:"+u.ID.String()); err != nil {
		return err
	}
	if err := codeTo(ctx, email); err != nil {
		return err
	}
	code, hash := h.newEmailCode(u.ID)
	if err := h.db.SaveEmailChange(ctx, dirdb.SaveEmailChangeParams{
		UserID: u.ID, NewEmail: email, OldEmail: u.Email, OldVerified: u.EmailVerified, CodeHash: hash,
	}); err != nil {
		return err
	}
	if err := h.sendEmailCode(ctx, email, code); err != nil {
		return err
	}
	// An address never verified may be a stranger's (the typo being fixed): it is not told.
	if u.EmailVerified {
		h.notify(ctx, u.Email, TemplateEmailChangeRequested, email)
	}
	return nil
}

// resendEmailChangeCode sends a new code to the pending address; ok=false when none is pending.
func (h *Handler) resendEmailChangeCode(ctx context.Context, userID uuid.UUID) (bool, error) {
	p, err := h.db.PendingEmailChange(ctx, userID)
	if errors.Is(err, dberr.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	if wait := resendGap - time.Since(p.SentAt); wait > 0 {
		return true, ratelimit.Refused(wait)
	}
	if err := sendUserLimit.Take(ctx, "email:"+userID.String()); err != nil {
		return true, err
	}
	if err := codeTo(ctx, p.NewEmail); err != nil {
		return true, err
	}
	code, hash := h.newEmailCode(userID)
	pending, err := h.db.ResendEmailChange(ctx, dirdb.ResendEmailChangeParams{UserID: userID, CodeHash: hash})
	if err != nil {
		return true, err
	}
	return true, h.sendEmailCode(ctx, pending, code)
}

// verifyEmailChange checks a code against the pending change and, when it matches, makes the new
// address the login e-mail (verified) and tells the old one. ok=false when no change is pending.
func (h *Handler) verifyEmailChange(ctx context.Context, u identity.User, code string) (bool, error) {
	ch, err := h.db.TryEmailChange(ctx, u.ID)
	switch {
	case errors.Is(err, dberr.ErrNotFound):
		return false, nil
	case err != nil:
		return true, err
	case time.Since(ch.SentAt) > codeLifespan:
		return true, invalid("code", "account.code_expired")
	case int(ch.Attempts) > maxAttempts:
		return true, invalid("code", "account.too_many_code_attempts")
	case !hmac.Equal(ch.CodeHash, h.emailCodeHash(u.ID, code)):
		return true, invalid("code", "account.code_invalid")
	}
	if err := h.kratos.SetVerifiedEmail(ctx, u.ID, ch.NewEmail); errors.Is(err, identity.ErrExists) {
		_ = h.db.DeleteEmailChange(ctx, u.ID)
		return true, invalid("code", "account.email_taken")
	} else if err != nil {
		return true, err
	}
	_ = h.db.DeleteEmailChange(ctx, u.ID)
	_ = h.db.DeleteVerificationFlow(ctx, dirdb.DeleteVerificationFlowParams{UserID: u.ID, Channel: "email"})
	if ch.OldVerified {
		h.notify(ctx, ch.OldEmail, TemplateEmailChanged, ch.NewEmail)
	}
	return true, nil
}

// cancelEmailChange is DELETE /manage/api/user/email_change → 204: the login e-mail stays.
func (h *Handler) cancelEmailChange(ctx context.Context, _ *struct{}) (*struct{}, error) {
	return nil, h.db.DeleteEmailChange(ctx, authz.CurrentUser(ctx).ID)
}

// pendingEmail is the address waiting for its code, or nil.
func (h *Handler) pendingEmail(ctx context.Context, userID uuid.UUID) (*string, error) {
	p, err := h.db.PendingEmailChange(ctx, userID)
	if errors.Is(err, dberr.ErrNotFound) {
		return nil, nil
	}
	return &p.NewEmail, err
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

func (h *Handler) sendEmailCode(ctx context.Context, to, code string) error {
	l := i18n.FromContext(ctx)
	minutes := int(codeLifespan.Minutes())
	data, _ := json.Marshal(map[string]any{"code": code, "new_email": to, "expires_in_minutes": minutes, "lang": string(l)})
	_, err := h.outbox.Send(ctx, outbox.Message{
		Recipient: to, MessageType: outbox.TypeEmail, TemplateType: TemplateEmailChangeCode, TemplateData: data, Code: code,
		Subject: i18n.T(l, TemplateEmailChangeCode+".subject"),
		Body:    i18n.T(l, TemplateEmailChangeCode+".body", to, code, minutes),
	})
	if err != nil {
		return errSendFailed(err)
	}
	return nil
}

// notify tells the old address about the change (requested or done). A failed notice does not undo
// the change: it stays in the outbox with its error.
func (h *Handler) notify(ctx context.Context, to, template, newEmail string) {
	l := i18n.FromContext(ctx)
	data, _ := json.Marshal(map[string]any{"new_email": newEmail, "lang": string(l)})
	if _, err := h.outbox.Send(ctx, outbox.Message{
		Recipient: to, MessageType: outbox.TypeEmail, TemplateType: template, TemplateData: data,
		Subject: i18n.T(l, template+".subject"),
		Body:    i18n.T(l, template+".body", newEmail),
	}); err != nil {
		slog.WarnContext(ctx, "e-mail change notice", "template", template, "error", err)
	}
}
