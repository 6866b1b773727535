package account

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/kratosproxy"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/workflows/onboarding"
)

// codeLifespan mirrors Kratos's selfservice.methods.code.config.lifespan.
const codeLifespan = 15 * time.Minute

// Channel names the address a code goes to: /accounts/verifications/{email|cellphone}/….
type Channel struct {
	Type string `path:"type" json:"-"`
}

// Validate answers an unknown channel as not found.
func (r *Channel) Validate() error {
	switch r.Type {
	case "email", "cellphone":
		return nil
	}
	return apierror.New(http.StatusNotFound, "account.verification_type_invalid")
}

// Sent is the answer of send_code.
type Sent struct {
	Sent    bool   `json:"sent"`
	Channel string `json:"channel"`
}

// sendCode answers POST /manage/api/accounts/verifications/{email|cellphone}/send_code with
// {"sent": true, "channel": …} or an error (account.missing_cellphone_number,
// account.already_verified, 429). A pending e-mail change gets its own code again.
func (h *Handler) sendCode(ctx context.Context, in *Channel) (*Sent, error) {
	u := authz.CurrentUser(ctx)
	pending := false
	var err error
	if in.Type == "email" {
		pending, err = h.resendEmailChangeCode(ctx, u.ID)
	}
	if !pending && err == nil {
		err = h.send(ctx, u.ID, in.Type, false)
	}
	if err != nil {
		return nil, err
	}
	return &Sent{Sent: true, Channel: in.Type}, nil
}

// send makes Kratos send a code to the channel's current address. changed tells that the address
// was just replaced (a new pending address exists, no reset needed).
func (h *Handler) send(ctx context.Context, userID uuid.UUID, channel string, changed bool) error {
	id, err := h.kratos.Get(ctx, userID)
	if err != nil {
		return err
	}
	addr, verified := id.Email, id.EmailVerified
	if channel == "cellphone" {
		addr, verified = id.Phone, id.PhoneVerified
		if addr == "" {
			return apierror.New(http.StatusUnprocessableEntity, "account.missing_cellphone_number")
		}
	}
	if verified {
		return apierror.New(http.StatusConflict, "account.already_verified")
	}
	if err := h.mayResend(ctx, userID, channel, addr, changed); err != nil {
		return err
	}
	var flow uuid.UUID
	if channel == "email" {
		flow, err = h.flows.SendEmailCode(ctx, addr)
		if err != nil {
			return errSendFailed(err)
		}
	} else if flow, err = h.sendSMSCode(ctx, id, addr, changed); err != nil {
		return err
	}
	return h.db.SaveVerificationFlow(ctx, dirdb.SaveVerificationFlowParams{UserID: userID, Channel: channel, FlowID: flow, Address: strings.ToLower(addr)})
}

// mayResend applies the gap between two codes to one address and the per-user and per-address caps.
func (h *Handler) mayResend(ctx context.Context, userID uuid.UUID, channel, addr string, changed bool) error {
	prev, err := h.db.VerificationFlow(ctx, dirdb.VerificationFlowParams{UserID: userID, Channel: channel})
	if err != nil && !errors.Is(err, dberr.ErrNotFound) {
		return err
	}
	if !changed && prev.Address == strings.ToLower(addr) && time.Since(prev.SentAt) < resendGap {
		return ratelimit.Refused(resendGap - time.Since(prev.SentAt))
	}
	if err := sendUserLimit.Take(ctx, channel+":"+userID.String()); err != nil {
		return err
	}
	return codeTo(ctx, addr)
}

// codeTo counts one code to addr against its daily cap.
func codeTo(ctx context.Context, addr string) error {
	ok, retry, err := ratelimit.CodeTo(ctx, addr)
	if err != nil {
		return err
	}
	if !ok {
		return ratelimit.Refused(retry)
	}
	return nil
}

// sendSMSCode makes Kratos text a code to the identity's phone. Kratos v1.3 sends SMS verification
// codes only from its hooks, to addresses in state "pending". After a first code the address is
// "sent", so re-adding the trait makes it a fresh pending address; the settings submission, run
// with the caller's session cookies, then makes Kratos send the SMS.
func (h *Handler) sendSMSCode(ctx context.Context, id identity.Identity, addr string, changed bool) (uuid.UUID, error) {
	if !changed {
		if err := h.kratos.Patch(ctx, id.ID, identity.RemoveTrait("/traits/phone")); err != nil {
			return uuid.Nil, err
		}
		if err := h.kratos.Patch(ctx, id.ID, identity.SetTrait("/traits/phone", addr)); err != nil {
			return uuid.Nil, err
		}
	}
	sent, err := h.flows.SendPendingCodes(ctx, kratosproxy.Jar(ctx))
	if err != nil {
		return uuid.Nil, errSendFailed(err)
	}
	flow, ok := sent[strings.ToLower(addr)]
	if !ok {
		return uuid.Nil, errSendFailed(errors.New("kratos sent no sms code"))
	}
	if e, ok := sent[strings.ToLower(id.Email)]; ok && !id.EmailVerified {
		h.saveFlows(ctx, id.ID, id.Email, "", map[string]uuid.UUID{strings.ToLower(id.Email): e})
	}
	return flow, nil
}

func errSendFailed(err error) error {
	return &apierror.Error{Status: http.StatusBadGateway, Code: "account.send_code_failed", Err: err}
}

// CodeCheck is POST …/{type}/verify {code}.
type CodeCheck struct {
	Channel
	Code string `json:"code"`
}

// Validate checks the channel and the code's shape.
func (r *CodeCheck) Validate() error {
	if err := r.Channel.Validate(); err != nil {
		return err
	}
	r.Code = strings.TrimSpace(r.Code)
	if r.Code == "" {
		return invalid("code", "account.code_required")
	}
	if len(r.Code) > 32 {
		return invalid("code", "account.code_invalid")
	}
	return nil
}

// Verified is the user's verified flags once a code checks out.
type Verified struct {
	Verifications Verifications `json:"verifications"`
}

// verify answers {"verifications": {email_verified, cellphone_verified}}. On the e-mail channel a
// pending e-mail change takes the code first.
func (h *Handler) verify(ctx context.Context, in *CodeCheck) (*Verified, error) {
	u := authz.CurrentUser(ctx)
	if err := verifyLimit.Take(ctx, in.Type+":"+u.ID.String()); err != nil {
		return nil, err
	}
	if in.Type == "email" {
		if pending, err := h.verifyEmailChange(ctx, u, in.Code); err != nil {
			return nil, err
		} else if pending {
			return h.verified(ctx, u.ID)
		}
	}
	if err := h.verifyFlow(ctx, u, in.Type, in.Code); err != nil {
		return nil, err
	}
	return h.verified(ctx, u.ID)
}

// verifyFlow submits the code to the Kratos verification flow last sent to the channel's current
// address, within the code's lifespan and attempts.
func (h *Handler) verifyFlow(ctx context.Context, u identity.User, channel, code string) error {
	key := dirdb.VerificationFlowParams{UserID: u.ID, Channel: channel}
	f, err := h.db.VerificationFlow(ctx, key)
	current := strings.ToLower(u.Email)
	if channel == "cellphone" {
		current = strings.ToLower(u.Phone)
	}
	switch {
	case errors.Is(err, dberr.ErrNotFound) || (err == nil && f.Address != current):
		return invalid("code", "account.code_not_sent")
	case err != nil:
		return err
	case time.Since(f.SentAt) > codeLifespan:
		return invalid("code", "account.code_expired")
	}
	attempts, err := h.db.CountVerificationAttempt(ctx, dirdb.CountVerificationAttemptParams(key))
	if err != nil {
		return err
	}
	if int(attempts) > maxAttempts {
		return invalid("code", "account.too_many_code_attempts")
	}
	err = h.flows.SubmitVerificationCode(ctx, kratosproxy.Jar(ctx), f.FlowID, code)
	switch {
	case errors.Is(err, identity.ErrInvalidCode):
		return invalid("code", "account.code_invalid")
	case errors.Is(err, identity.ErrFlowGone):
		return invalid("code", "account.code_expired")
	case err != nil:
		return err
	}
	_ = h.db.DeleteVerificationFlow(ctx, dirdb.DeleteVerificationFlowParams(key))
	return nil
}

// verified answers a verified code with the user's flags, and tells onboarding when both are done.
func (h *Handler) verified(ctx context.Context, userID uuid.UUID) (*Verified, error) {
	id, err := h.kratos.Get(ctx, userID)
	if err != nil {
		return nil, err
	}
	if id.EmailVerified && id.PhoneVerified {
		h.verificationDone(ctx, userID)
	}
	return &Verified{Verifications: Verifications{EmailVerified: id.EmailVerified, CellphoneVerified: id.PhoneVerified}}, nil
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
