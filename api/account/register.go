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
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
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
}

// IdempotencyHeader carries the client's key for one signup attempt: a retry with the same key
// finishes the same organisation.
const IdempotencyHeader = "Idempotency-Key"

// orgNamespace makes organisation ids from idempotency keys (UUIDv5).
var orgNamespace = uuid.MustParse("6f1c1c3e-51a4-4c0e-9a57-0b8f4a3a7d21")

// metadataKey is the admin-metadata field tying a Kratos identity to its registration.
const metadataKey = "registration_key"

func (h *Handler) register(c *gin.Context) {
	ctx := h.ctx(c)
	key := strings.TrimSpace(c.GetHeader(IdempotencyHeader))
	if key == "" {
		key = uuid.NewString()
	} else if len(key) < 8 || len(key) > 100 {
		apierror.Abort(c, apierror.BadRequest("idempotency_key_invalid"))
		return
	}
	var in RegisterRequest
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	u, o := &in.User, &in.Organization
	fields := map[string]string{}
	add := func(field, code string) {
		if code != "" {
			fields[field] = code
		}
	}
	o.Country = strings.ToUpper(strings.TrimSpace(o.Country))
	add("organization.name", checkName(o.Name, "name"))
	if !config.IsCountry(o.Country) {
		add("organization.country", "country_invalid")
	}
	uid, code := checkUID(o.Country, o.UIDType, o.UID)
	add("organization.uid", code)
	add("user.first_name", checkName(u.FirstName, "first_name"))
	add("user.last_name", checkName(u.LastName, "last_name"))
	email, code := normalizeEmail(u.Email)
	add("user.email", code)
	add("user.password", checkPassword(u.Password))
	phone, code := normalizeCellphone(u.Cellphone)
	add("user.cellphone", code)
	switch n := len(strings.TrimSpace(u.OrganizationRoleArea)); {
	case n == 0:
		add("user.organization_role_area", "role_area_required")
	case n > 100:
		add("user.organization_role_area", "too_long")
	}
	if len(fields) > 0 {
		apierror.Abort(c, apierror.Validation(fields))
		return
	}

	if !registerTargetLimit.Check(c, email) || !registerTargetLimit.Check(c, phone) {
		return
	}

	// Uniqueness, where this registration's own identity and phone do not count. A used address
	// gets the same answer whoever uses it (an account, a registration in progress).
	if existing, ok, err := h.kratos.FindByEmail(ctx, email); err != nil {
		apierror.Abort(c, err)
		return
	} else if ok && !h.ownedBy(ctx, existing, key) {
		fields["user.email"] = "signup.email_unavailable"
	}
	var pending bool
	if err := h.tenants.Directory().QueryRow(ctx, queries.Get("EmailPending"), email, key).Scan(&pending); err != nil {
		apierror.Abort(c, err)
		return
	} else if pending {
		fields["user.email"] = "signup.email_unavailable"
	}
	if taken, err := h.phoneTaken(ctx, phone, uuid.Nil, key); err != nil {
		apierror.Abort(c, err)
		return
	} else if taken {
		fields["user.cellphone"] = "signup.cellphone_unavailable"
	}
	if len(fields) > 0 {
		apierror.Abort(c, apierror.Validation(fields))
		return
	}

	// The registration row fixes the organisation id for this key (deterministic: UUIDv5 of it).
	orgID := uuid.NewSHA1(orgNamespace, []byte(key))
	var userID *uuid.UUID
	var sameEmail bool
	var status string
	if err := h.tenants.Directory().QueryRow(ctx, queries.Get("StartRegistration"), key, orgID, email, phone).
		Scan(&orgID, &userID, &sameEmail, &status); err != nil {
		apierror.Abort(c, err)
		return
	}
	if !sameEmail {
		apierror.Abort(c, apierror.New(http.StatusConflict, "registration_in_use"))
		return
	}
	replay := userID != nil

	if userID == nil {
		id, err := h.kratos.CreateWithMetadata(ctx, identity.NewUser{
			Email: email, Phone: phone, FirstName: strings.TrimSpace(u.FirstName), LastName: strings.TrimSpace(u.LastName),
			RoleArea: strings.TrimSpace(u.OrganizationRoleArea), Password: u.Password,
		}, map[string]any{metadataKey: key, "organization_id": orgID.String()})
		if errors.Is(err, identity.ErrExists) {
			// A previous attempt with this key created it and failed before recording it.
			existing, ok, ferr := h.kratos.FindByEmail(ctx, email)
			if ferr != nil || !ok || !h.ownedBy(ctx, existing, key) {
				apierror.Abort(c, apierror.Validation(map[string]string{"user.email": "signup.email_unavailable"}))
				return
			}
			id, err = existing, nil
		}
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		if _, err := h.tenants.Directory().Exec(ctx, queries.Get("SetRegistrationUser"), key, id); err != nil {
			apierror.Abort(c, err)
			return
		}
		userID = &id
	}

	if status != "completed" {
		if err := h.finish(ctx, registration.Input{
			Key: key, OrganizationID: orgID.String(), UserID: userID.String(),
			Name: strings.TrimSpace(o.Name), Country: o.Country, UIDType: strings.ToUpper(strings.TrimSpace(o.UIDType)), UID: uid,
			Phone: phone,
		}); err != nil {
			apierror.Abort(c, err)
			return
		}
	}

	// Sign the new administrator in on our origin: Kratos's browser login flow, run with the
	// caller's cookies; its Set-Cookie headers (session, CSRF) go back to the browser.
	jar := identity.NewJar(c.GetHeader("Cookie"))
	if _, err := h.flows.Login(ctx, jar, email, u.Password); err != nil {
		var fe *identity.FlowError
		if replay && errors.As(err, &fe) && fe.Status == http.StatusBadRequest {
			apierror.Abort(c, apierror.New(http.StatusConflict, "registration_in_use"))
			return
		}
		apierror.Abort(c, err)
		return
	}
	if !replay {
		// Kratos sends a code to each pending address (e-mail and SMS), unless one of them already
		// got its codes for the day. Not fatal: "resend" exists.
		if !h.codesAllowed(ctx, email, phone) {
			slog.WarnContext(ctx, "first verification codes not sent: daily cap reached")
		} else if sent, err := h.flows.SendPendingCodes(ctx, jar); err != nil {
			slog.WarnContext(ctx, "sending first verification codes", "error", err)
		} else {
			h.saveFlows(ctx, *userID, email, phone, sent)
		}
	}
	for _, sc := range jar.SetCookies {
		c.Writer.Header().Add("Set-Cookie", sc)
	}
	st := http.StatusCreated
	if replay {
		st = http.StatusOK
	}
	c.JSON(st, gin.H{
		"redirect_to":  "/account/verifications",
		"user":         gin.H{"uuid": userID.String(), "email": email},
		"organization": gin.H{"uuid": orgID.String(), "name": strings.TrimSpace(o.Name), "country": o.Country},
	})
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
			return &apierror.Error{Status: http.StatusServiceUnavailable, Code: "registration_pending", Err: err}
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
		if _, err := h.tenants.Directory().Exec(ctx, queries.Get("SaveVerificationFlow"), userID, channel, flow, addr); err != nil {
			slog.WarnContext(ctx, "saving verification flow", "error", err)
		}
	}
}
