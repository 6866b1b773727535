// Package account is signup and the signed-in user's own account: the signup server checks, the
// registration, verification of the e-mail and cellphone by one-time codes (Kratos), and the
// current user's data and password.
package account

import (
	"context"
	"embed"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/idempotency"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

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
}

// Routes mounts:
//
//	POST  /internal/api/validate/email|cellphone|uid      signup checks
//	POST  /internal/api/accounts/register                  signup (Idempotency-Key header)
//	GET   /manage/api/user                                 current user
//	PATCH /manage/api/user                                 my data
//	PUT   /manage/api/user                                 change e-mail or cellphone (a code is sent)
//	DELETE /manage/api/user/email_change                   drop a pending e-mail change
//	PUT   /manage/api/user/password                        change password
//	POST  /manage/api/accounts/verifications/:type/send_code|verify
func Routes(public, manage *gin.RouterGroup, d Deps) {
	hc := &http.Client{Timeout: 10 * time.Second}
	h := &Handler{
		cfg: d.Config, tenants: d.Tenants, temporal: d.Temporal, authz: d.Authz,
		kratos: identity.NewKratos(d.Config.KratosAdmin, hc),
		flows:  identity.NewFlows(d.Config.KratosPublic, hc),
		outbox: outbox.New(d.Tenants.Directory(), d.Config),
	}
	v := public.Group("/internal/api/validate", validateLimit.PerIP())
	v.POST("/email", h.validateEmail)
	v.POST("/cellphone", h.validateCellphone)
	v.POST("/uid", h.validateUID)
	public.POST("/internal/api/accounts/register", registerLimit.PerIP(), idempotency.Bind(h.cfg.Secret, idempotency.Public(h.tenants.Directory())), h.register)

	view := d.Authz.Require(authz.View)
	// The verification page works before the e-mail is verified: it reads the user, may correct
	// the address, and sends and checks the codes. Everything else waits for a verified e-mail.
	early := d.Authz.BeforeVerification
	early(manage, http.MethodGet, "/user", view, h.current)
	manage.PATCH("/user", view, h.updateMyData)
	early(manage, http.MethodPut, "/user", view, h.changeContact)
	early(manage, http.MethodDelete, "/user/email_change", view, h.cancelEmailChange)
	manage.PUT("/user/password", view, h.changePassword)
	early(manage, http.MethodPost, "/accounts/verifications/:type/send_code", view, sendIPLimit.PerIP(), h.sendCode)
	early(manage, http.MethodPost, "/accounts/verifications/:type/verify", view, verifyIPLimit.PerIP(), h.verify)
}

func (h *Handler) ctx(c *gin.Context) context.Context { return c.Request.Context() }
