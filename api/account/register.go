package account

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/idempotency"
	"github.com/aporta/aporta/api/kratosproxy"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/workflows/registration"
)

// RegisterRequest is POST /internal/api/accounts/register.
type RegisterRequest struct {
	User struct {
		FirstName            string    `json:"first_name"`
		LastName             string    `json:"last_name"`
		Email                string    `json:"email"`
		Password             string    `json:"password"`
		Cellphone            Cellphone `json:"cellphone"`
		OrganizationRoleArea string    `json:"organization_role_area"`
	} `json:"user"`
	Organization struct {
		Name    string `json:"name"`
		UID     string `json:"uid"`
		UIDType string `json:"uid_type"`
		Country string `json:"country"`
	} `json:"organization"`

	// The checked forms Validate leaves: e-mail lower-cased, phone in E.164, bare tax id.
	email, phone, uid string
}

// Validate checks every field and keeps their normal forms.
func (r *RegisterRequest) Validate() error {
	u, o := &r.User, &r.Organization
	fields := map[string]string{}
	add := func(field, code string) {
		if code != "" {
			fields[field] = code
		}
	}
	var code string
	o.Country = strings.ToUpper(strings.TrimSpace(o.Country))
	add("organization.name", checkName(o.Name, "name"))
	if !config.IsCountry(o.Country) {
		add("organization.country", "account.country_invalid")
	}
	r.uid, code = checkUID(o.Country, o.UIDType, o.UID)
	add("organization.uid", code)
	add("user.first_name", checkName(u.FirstName, "first_name"))
	add("user.last_name", checkName(u.LastName, "last_name"))
	r.email, code = normalizeEmail(u.Email)
	add("user.email", code)
	add("user.password", checkPassword(u.Password))
	r.phone, code = normalizeCellphone(u.Cellphone)
	add("user.cellphone", code)
	add("user.organization_role_area", checkRoleArea(u.OrganizationRoleArea))
	return apierror.Invalid(fields)
}

// Registered is the answer: where the web app goes next, the new user and organisation.
type Registered struct {
	RedirectTo string `json:"redirect_to"`
	User       struct {
		UUID  string `json:"uuid"`
		Email string `json:"email"`
	} `json:"user"`
	Organization struct {
		UUID    string `json:"uuid"`
		Name    string `json:"name"`
		Country string `json:"country"`
	} `json:"organization"`
	replay bool
}

// StatusCode is 201 for a new account, 200 for a retry that finished the same one.
func (r *Registered) StatusCode() int {
	if r.replay {
		return http.StatusOK
	}
	return http.StatusCreated
}

// orgNamespace makes organisation ids from idempotency keys (UUIDv5).
var orgNamespace = uuid.MustParse("6f1c1c3e-51a4-4c0e-9a57-0b8f4a3a7d21")

// metadataKey is the admin-metadata field tying a Kratos identity to its registration.
const metadataKey = "registration_key"

// signup is one registration attempt as it goes: its key, its row and the identity it made.
type signup struct {
	*RegisterRequest
	key    string
	orgID  uuid.UUID
	userID *uuid.UUID
	status string
	replay bool // an earlier attempt with this key created the identity
}

// register creates the administrator's identity and the organisation (the registration workflow),
// signs them in and sends the first verification codes. Every step is safe to repeat with the same
// Idempotency-Key: a retry finishes what an interrupted attempt started.
func (h *Handler) register(ctx context.Context, in *RegisterRequest) (*Registered, error) {
	key, err := registrationKey(ctx)
	if err != nil {
		return nil, err
	}
	if err := registerTargetLimit.Take(ctx, in.email); err != nil {
		return nil, err
	}
	if err := registerTargetLimit.Take(ctx, in.phone); err != nil {
		return nil, err
	}
	if err := h.checkAvailable(ctx, in.email, in.phone, key); err != nil {
		return nil, err
	}
	s, err := h.startRegistration(ctx, in, key)
	if err != nil {
		return nil, err
	}
	if s.userID == nil {
		if err := h.createAdministrator(ctx, s); err != nil {
			return nil, err
		}
	}
	if s.status != "completed" {
		if err := h.finish(ctx, s.workflowInput()); err != nil {
			return nil, err
		}
	}
	if err := h.signIn(ctx, s); err != nil {
		return nil, err
	}
	if !s.replay {
		h.sendFirstCodes(ctx, *s.userID, s.email, s.phone)
	}
	return s.answer(), nil
}

// registrationKey is the client's Idempotency-Key, or a new one for a client that sent none: a
// retry with the same key finishes the same organisation.
func registrationKey(ctx context.Context) (string, error) {
	key := idempotency.Key(ctx)
	switch {
	case key == "":
		return uuid.NewString(), nil
	case len(key) < 8 || len(key) > 100:
		return "", apierror.BadRequest("signup.idempotency_key_invalid")
	}
	return key, nil
}

// checkAvailable refuses an address or number in use, where this registration's own identity and
// phone do not count. A used address gets the same answer whoever uses it (an account, a
// registration in progress).
func (h *Handler) checkAvailable(ctx context.Context, email, phone, key string) error {
	fields := map[string]string{}
	if existing, ok, err := h.kratos.FindByEmail(ctx, email); err != nil {
		return err
	} else if ok && !h.ownedBy(ctx, existing, key) {
		fields["user.email"] = "signup.email_unavailable"
	}
	if pending, err := h.db.RegistrationEmailPending(ctx, dirdb.RegistrationEmailPendingParams{Email: email, OwnKey: key}); err != nil {
		return err
	} else if pending {
		fields["user.email"] = "signup.email_unavailable"
	}
	if taken, err := h.phoneTaken(ctx, phone, uuid.Nil, key); err != nil {
		return err
	} else if taken {
		fields["user.cellphone"] = "signup.cellphone_unavailable"
	}
	return apierror.Invalid(fields)
}

// startRegistration records the attempt; the row fixes the organisation id for this key
// (deterministic: UUIDv5 of it) and remembers the identity an earlier attempt made.
func (h *Handler) startRegistration(ctx context.Context, in *RegisterRequest, key string) (*signup, error) {
	row, err := h.db.StartRegistration(ctx, dirdb.StartRegistrationParams{
		IdempotencyKey: key, OrganizationID: uuid.NewSHA1(orgNamespace, []byte(key)), Email: in.email, Phone: in.phone,
	})
	if err != nil {
		return nil, err
	}
	if !row.SameEmail {
		return nil, apierror.New(http.StatusConflict, "signup.registration_in_use")
	}
	return &signup{RegisterRequest: in, key: key, orgID: row.OrganizationID, userID: row.UserID, status: row.Status,
		replay: row.UserID != nil}, nil
}

// createAdministrator creates the Kratos identity, tagged with the registration key, and records it.
func (h *Handler) createAdministrator(ctx context.Context, s *signup) error {
	u := &s.User
	id, err := h.kratos.CreateWithMetadata(ctx, identity.NewUser{
		Email: s.email, Phone: s.phone, FirstName: strings.TrimSpace(u.FirstName), LastName: strings.TrimSpace(u.LastName),
		RoleArea: strings.TrimSpace(u.OrganizationRoleArea), Password: u.Password,
	}, map[string]any{metadataKey: s.key, "organization_id": s.orgID.String()})
	if errors.Is(err, identity.ErrExists) {
		// A previous attempt with this key created it and failed before recording it.
		existing, ok, ferr := h.kratos.FindByEmail(ctx, s.email)
		if ferr != nil || !ok || !h.ownedBy(ctx, existing, s.key) {
			return apierror.Validation(map[string]string{"user.email": "signup.email_unavailable"})
		}
		id, err = existing, nil
	}
	if err != nil {
		return err
	}
	if err := h.db.SetRegistrationUser(ctx, dirdb.SetRegistrationUserParams{IdempotencyKey: s.key, UserID: &id}); err != nil {
		return err
	}
	s.userID = &id
	return nil
}

func (s *signup) workflowInput() registration.Input {
	o := &s.Organization
	return registration.Input{
		Key: s.key, OrganizationID: s.orgID.String(), UserID: s.userID.String(),
		Name: strings.TrimSpace(o.Name), Country: o.Country, UIDType: strings.ToUpper(strings.TrimSpace(o.UIDType)), UID: s.uid,
		Phone: s.phone,
	}
}

// signIn signs the new administrator in on our origin: Kratos's browser login flow, run with the
// caller's cookies; its Set-Cookie headers (session, CSRF) go back to the browser.
func (h *Handler) signIn(ctx context.Context, s *signup) error {
	_, err := h.flows.Login(ctx, kratosproxy.Jar(ctx), s.email, s.User.Password)
	var fe *identity.FlowError
	if s.replay && errors.As(err, &fe) && fe.Status == http.StatusBadRequest {
		return apierror.New(http.StatusConflict, "signup.registration_in_use")
	}
	return err
}

// sendFirstCodes makes Kratos send a code to each pending address (e-mail and SMS), unless one of
// them already got its codes for the day. Not fatal: "resend" exists.
func (h *Handler) sendFirstCodes(ctx context.Context, userID uuid.UUID, email, phone string) {
	if !h.codesAllowed(ctx, email, phone) {
		slog.WarnContext(ctx, "first verification codes not sent: daily cap reached")
	} else if sent, err := h.flows.SendPendingCodes(ctx, kratosproxy.Jar(ctx)); err != nil {
		slog.WarnContext(ctx, "sending first verification codes", "error", err)
	} else {
		h.saveFlows(ctx, userID, email, phone, sent)
	}
}

func (s *signup) answer() *Registered {
	out := &Registered{RedirectTo: "/account/verifications", replay: s.replay}
	out.User.UUID, out.User.Email = s.userID.String(), s.email
	out.Organization.UUID, out.Organization.Name, out.Organization.Country = s.orgID.String(), strings.TrimSpace(s.Organization.Name), s.Organization.Country
	return out
}

// codesAllowed counts one code to each address against its daily cap; false if any is spent.
func (h *Handler) codesAllowed(ctx context.Context, addrs ...string) bool {
	for _, a := range addrs {
		if ok, _, err := ratelimit.CodeTo(ctx, a); err != nil || !ok {
			return false
		}
	}
	return true
}

// ownedBy reports whether the identity was created by the registration with this key.
func (h *Handler) ownedBy(ctx context.Context, id uuid.UUID, key string) bool {
	i, err := h.kratos.Get(ctx, id)
	if err != nil {
		return false
	}
	k, _ := i.Metadata[metadataKey].(string)
	return k == key
}

// finish runs (or joins) the registration workflow and waits for it.
func (h *Handler) finish(ctx context.Context, in registration.Input) error {
	run, err := h.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: registration.WorkflowID(in.Key), TaskQueue: registration.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowExecutionTimeout: 24 * time.Hour,
	}, registration.Workflow, in)
	if err != nil {
		return apierror.Internal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := run.Get(wctx, nil); err != nil {
		if wctx.Err() != nil {
			// Still retrying (a database or Keto is down): the workflow will finish it; the client
			// retries with the same key.
			return &apierror.Error{Status: http.StatusServiceUnavailable, Code: "signup.registration_pending", Err: err}
		}
		return apierror.Internal(err)
	}
	return nil
}

// saveFlows records the verification flows Kratos answered with, per channel.
func (h *Handler) saveFlows(ctx context.Context, userID uuid.UUID, email, phone string, sent map[string]uuid.UUID) {
	for addr, flow := range sent {
		channel := ""
		switch {
		case strings.EqualFold(addr, email):
			channel = "email"
		case addr == strings.ToLower(phone):
			channel = "cellphone"
		default:
			continue
		}
		if err := h.db.SaveVerificationFlow(ctx, dirdb.SaveVerificationFlowParams{UserID: userID, Channel: channel, FlowID: flow, Address: addr}); err != nil {
			slog.WarnContext(ctx, "saving verification flow", "error", err)
		}
	}
}
