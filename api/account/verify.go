package account

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/workflows/onboarding"
)

// codeLifespan mirrors Kratos's selfservice.methods.code.config.lifespan.
const codeLifespan = 15 * time.Minute

func channelOf(c *gin.Context) (string, bool) {
	switch t := c.Param("type"); t {
	case "email", "cellphone":
		return t, true
	}
	apierror.Abort(c, apierror.New(http.StatusNotFound, "verification_type_invalid"))
	return "", false
}

// sendCode answers POST /manage/api/accounts/verifications/{email|cellphone}/send_code with
// {"sent": true, "channel": …} or an error (missing_cellphone_number, already_verified, 429).
func (h *Handler) sendCode(c *gin.Context) {
	channel, ok := channelOf(c)
	if !ok {
		return
	}
	u := authz.User(c)
	pending := false
	var err error
	if channel == "email" {
		pending, err = h.resendEmailChangeCode(c, u.ID)
	}
	if !pending && err == nil {
		err = h.send(c, u.ID, channel, false)
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"sent": true, "channel": channel})
}

// send makes Kratos send a code to the channel's current address. changed tells that the address
// was just replaced (a new pending address exists, no reset needed).
func (h *Handler) send(c *gin.Context, userID uuid.UUID, channel string, changed bool) error {
	ctx := h.ctx(c)
	id, err := h.kratos.Get(ctx, userID)
	if err != nil {
		return err
	}
	addr, verified := id.Email, id.EmailVerified
	if channel == "cellphone" {
		addr, verified = id.Phone, id.PhoneVerified
		if addr == "" {
			return apierror.New(http.StatusUnprocessableEntity, "missing_cellphone_number")
		}
	}
	if verified {
		return apierror.New(http.StatusConflict, "already_verified")
	}
	var last time.Time
	var flow uuid.UUID
	var prevAddr string
	var attempts int
	err = h.tenants.Directory().QueryRow(ctx, queries.Get("GetVerificationFlow"), userID, channel).Scan(&flow, &prevAddr, &attempts, &last)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	if !changed && prevAddr == strings.ToLower(addr) && time.Since(last) < resendGap {
		return ratelimit.Error(c, resendGap-time.Since(last))
	}
	if ok, retry, err := sendUserLimit.Allow(ctx, channel+":"+userID.String()); err != nil || !ok {
		return limitError(c, retry, err)
	}
	if ok, retry, err := ratelimit.CodeTo(ctx, addr); err != nil || !ok {
		return limitError(c, retry, err)
	}

	var newFlow uuid.UUID
	if channel == "email" {
		newFlow, err = h.flows.SendEmailCode(ctx, addr)
		if err != nil {
			return &apierror.Error{Status: http.StatusBadGateway, Code: "send_code_failed", Err: err}
		}
	} else {
		// Kratos v1.3 sends SMS verification codes only from its hooks, to addresses in state
		// "pending". After a first code the address is "sent", so re-adding the trait makes it a
		// fresh pending address; the settings submission then makes Kratos send the SMS.
		if !changed {
			if err := h.kratos.Patch(ctx, userID, identity.RemoveTrait("/traits/phone")); err != nil {
				return err
			}
			if err := h.kratos.Patch(ctx, userID, identity.SetTrait("/traits/phone", addr)); err != nil {
				return err
			}
		}
		jar := identity.NewJar(c.GetHeader("Cookie"))
		sent, err := h.flows.SendPendingCodes(ctx, jar)
		for _, sc := range jar.SetCookies {
			c.Writer.Header().Add("Set-Cookie", sc)
		}
		if err != nil {
			return &apierror.Error{Status: http.StatusBadGateway, Code: "send_code_failed", Err: err}
		}
		f, ok := sent[strings.ToLower(addr)]
		if !ok {
			return &apierror.Error{Status: http.StatusBadGateway, Code: "send_code_failed", Err: errors.New("kratos sent no sms code")}
		}
		newFlow = f
		if e, ok := sent[strings.ToLower(id.Email)]; ok && !id.EmailVerified {
			h.saveFlows(ctx, userID, id.Email, "", map[string]uuid.UUID{strings.ToLower(id.Email): e})
		}
	}
	_, err = h.tenants.Directory().Exec(ctx, queries.Get("SaveVerificationFlow"), userID, channel, newFlow, strings.ToLower(addr))
	return err
}

// limitError is a limiter's refusal, or its failure.
func limitError(c *gin.Context, retry time.Duration, err error) error {
	if err != nil {
		return err
	}
	return ratelimit.Error(c, retry)
}

// verify answers POST …/{type}/verify {code} with {"verifications": {email_verified, cellphone_verified}}.
func (h *Handler) verify(c *gin.Context) {
	channel, ok := channelOf(c)
	if !ok {
		return
	}
	var in struct {
		Code string `json:"code"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	in.Code = strings.TrimSpace(in.Code)
	if in.Code == "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"code": "code_required"}))
		return
	}
	if len(in.Code) > 32 {
		apierror.Abort(c, apierror.Validation(map[string]string{"code": "code_invalid"}))
		return
	}
	u := authz.User(c)
	ctx := h.ctx(c)
	if !verifyLimit.Check(c, channel+":"+u.ID.String()) {
		return
	}
	if channel == "email" {
		if pending, err := h.verifyEmailChange(c, u, in.Code); err != nil {
			apierror.Abort(c, err)
			return
		} else if pending {
			h.verified(c, u.ID)
			return
		}
	}
	var flow uuid.UUID
	var addr string
	var attempts int
	var sentAt time.Time
	err := h.tenants.Directory().QueryRow(ctx, queries.Get("GetVerificationFlow"), u.ID, channel).Scan(&flow, &addr, &attempts, &sentAt)
	current := strings.ToLower(u.Email)
	if channel == "cellphone" {
		current = strings.ToLower(u.Phone)
	}
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && addr != current) {
		apierror.Abort(c, apierror.Validation(map[string]string{"code": "code_not_sent"}))
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if time.Since(sentAt) > codeLifespan {
		apierror.Abort(c, apierror.Validation(map[string]string{"code": "code_expired"}))
		return
	}
	if err := h.tenants.Directory().QueryRow(ctx, queries.Get("CountAttempt"), u.ID, channel).Scan(&attempts); err != nil {
		apierror.Abort(c, err)
		return
	}
	if attempts > maxAttempts {
		apierror.Abort(c, apierror.Validation(map[string]string{"code": "too_many_code_attempts"}))
		return
	}
	err = h.flows.SubmitVerificationCode(ctx, identity.NewJar(c.GetHeader("Cookie")), flow, in.Code)
	switch {
	case errors.Is(err, identity.ErrInvalidCode):
		apierror.Abort(c, apierror.Validation(map[string]string{"code": "code_invalid"}))
		return
	case errors.Is(err, identity.ErrFlowGone):
		apierror.Abort(c, apierror.Validation(map[string]string{"code": "code_expired"}))
		return
	case err != nil:
		apierror.Abort(c, err)
		return
	}
	_, _ = h.tenants.Directory().Exec(ctx, queries.Get("DeleteVerificationFlow"), u.ID, channel)
	h.verified(c, u.ID)
}

// verified answers a verified code with the user's flags, and tells onboarding when both are done.
func (h *Handler) verified(c *gin.Context, userID uuid.UUID) {
	ctx := h.ctx(c)
	id, err := h.kratos.Get(ctx, userID)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if id.EmailVerified && id.PhoneVerified {
		h.verificationDone(ctx, userID)
	}
	c.JSON(http.StatusOK, gin.H{"verifications": gin.H{"email_verified": id.EmailVerified, "cellphone_verified": id.PhoneVerified}})
}

// verificationDone tells each of the user's organisations' onboarding that the step is done.
func (h *Handler) verificationDone(ctx context.Context, userID uuid.UUID) {
	ms, err := h.tenants.MembershipsOf(ctx, userID)
	if err != nil {
		slog.WarnContext(ctx, "verification done: memberships", "error", err)
		return
	}
	for _, m := range ms {
		if m.Role != "administrator" {
			continue
		}
		if err := h.temporal.SignalWorkflow(ctx, onboarding.WorkflowID(m.OrganizationID.String()), "",
			onboarding.SignalStepCompleted, onboarding.StepVerification); err != nil {
			slog.WarnContext(ctx, "signal onboarding verification", "organization", m.OrganizationID, "error", err)
		}
	}
}
