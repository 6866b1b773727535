// Package account is signup and the signed-in user's own account: the signup server checks, the
// registration, verification of the e-mail and cellphone by one-time codes (Kratos), and the
// current user's data and password.
package account

import (
	"net/http"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/idempotency"
	"github.com/aporta/aporta/api/kratosproxy"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// Deps are the package's collaborators.
type Deps struct {
	Config   *config.Config
	Tenants  *tenants.Tenants
	Temporal client.Client
	Authz    *authz.Authz
}

// Abuse limits (fixed windows shared by every serve process).
var (
	validateLimit = ratelimit.New("validate", 60, time.Minute)        // per IP
	registerLimit = ratelimit.New("register", 10, 10*time.Minute)     // per IP
	sendIPLimit   = ratelimit.New("send_code_ip", 30, 15*time.Minute) // per IP
	sendUserLimit = ratelimit.New("send_code", 5, 15*time.Minute)     // per identity and channel
	verifyIPLimit = ratelimit.New("verify_ip", 60, 15*time.Minute)    // per IP
	verifyLimit   = ratelimit.New("verify", 10, 15*time.Minute)       // per identity and channel
	userLimit     = ratelimit.New("user_change", 10, 15*time.Minute)  // PUT user, password, per identity
	resendGap     = 30 * time.Second                                  // between two codes to one channel
	maxAttempts   = 5                                                 // wrong codes per sent code
)

// Per-target limits: they count the e-mail or phone number being checked, whichever IP asks, so
// spreading the checks of one address over many IPs does not help.
var (
	validateTargetLimit = ratelimit.New("validate_target", 10, 10*time.Minute) // per e-mail or phone
	registerTargetLimit = ratelimit.New("register_target", 5, time.Hour)       // per e-mail and phone
)

// Handler serves the account routes.
type Handler struct {
	cfg      *config.Config
	tenants  *tenants.Tenants
	temporal client.Client
	authz    *authz.Authz
	kratos   *identity.Kratos
	flows    *identity.Flows
	outbox   *outbox.Outbox
	db       *dirdb.Queries
}

// NewHandler builds the handler.
func NewHandler(d Deps) *Handler {
	hc := &http.Client{Timeout: 10 * time.Second}
	return &Handler{
		cfg: d.Config, tenants: d.Tenants, temporal: d.Temporal, authz: d.Authz,
		kratos: identity.NewKratos(d.Config.KratosAdmin, hc),
		flows:  identity.NewFlows(d.Config.KratosPublic, hc),
		outbox: outbox.New(d.Tenants.Directory(), d.Config),
		db:     dirdb.Store(d.Tenants.Directory()),
	}
}

// Mount mounts:
//
//	POST  /internal/api/validate/email|cellphone|uid      signup checks
//	POST  /internal/api/accounts/register                  signup (Idempotency-Key header)
//	GET   /manage/api/user                                 current user
//	PATCH /manage/api/user                                 my data
//	PUT   /manage/api/user                                 change e-mail or cellphone (a code is sent)
//	DELETE /manage/api/user/email_change                   drop a pending e-mail change
//	PUT   /manage/api/user/password                        change password
//	POST  /manage/api/accounts/verifications/:type/send_code|verify
//
// The calls that run Kratos's browser flows (signing in, sending and checking codes) carry the
// caller's cookies both ways (kratosproxy.Cookies).
func (h *Handler) Mount(g endpoint.Groups) {
	v := g.Public.Group("/internal/api/validate", validateLimit.PerIP())
	v.POST("/email", endpoint.Handle(h.validateEmail))
	v.POST("/cellphone", endpoint.Handle(h.validateCellphone))
	v.POST("/uid", endpoint.Handle(h.validateUID))
	g.Public.POST("/internal/api/accounts/register", registerLimit.PerIP(),
		idempotency.Bind(h.cfg.Secret, idempotency.Public(h.tenants.Directory())), kratosproxy.Cookies(), endpoint.Handle(h.register))

	// Anyone with a role reaches their own account, agency administrators (no view) too.
	view := g.Authz.Require(authz.Member)
	// The verification page works before the e-mail is verified: it reads the user, may correct
	// the address, and sends and checks the codes. Everything else waits for a verified e-mail.
	early := g.Authz.BeforeVerification
	early(g.Manage, http.MethodGet, "/user", view, endpoint.Handle(h.current))
	g.Manage.PATCH("/user", view, endpoint.Handle(h.updateMyData))
	early(g.Manage, http.MethodPut, "/user", view, kratosproxy.Cookies(), endpoint.Handle(h.changeContact))
	early(g.Manage, http.MethodDelete, "/user/email_change", view, endpoint.Handle(h.cancelEmailChange))
	g.Manage.PUT("/user/password", view, endpoint.Handle(h.changePassword))
	early(g.Manage, http.MethodPost, "/accounts/verifications/:type/send_code", view, sendIPLimit.PerIP(), kratosproxy.Cookies(), endpoint.Handle(h.sendCode))
	early(g.Manage, http.MethodPost, "/accounts/verifications/:type/verify", view, verifyIPLimit.PerIP(), kratosproxy.Cookies(), endpoint.Handle(h.verify))
}
