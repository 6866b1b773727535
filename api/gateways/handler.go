package gateways

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/connections"
)

// Handler serves the gateways' routes.
type Handler struct{ s *Service }

// NewHandler builds the handler.
func NewHandler(s *Service) Handler { return Handler{s: s} }

// Mount mounts the JSON endpoints under /manage/api and the OAuth redirects under auth, a group
// with the form-post CSRF check and the session (api/server.go). Only administrators connect and
// delete (manage_organization).
func (h Handler) Mount(g endpoint.Groups, auth *gin.RouterGroup) {
	admin := g.Authz.Require(authz.ManageOrganization)
	g.Manage.GET("/payment_gateways", admin, endpoint.HandleScoped(h.s.List))
	g.Manage.POST("/payment_gateways/centralpos", admin, endpoint.HandleScoped(h.s.ConnectCentralPos))
	g.Manage.DELETE("/payment_gateways/:id", admin, endpoint.HandleScoped(h.s.Delete))
	// These two stay Gin handlers: they answer browser navigations with 303 redirects (to the
	// gateway's page, back to ours), not JSON, and the form post's token comes in a form field.
	// Navigations cannot send the organisation header: the form names its organisation in a field
	// (the list's organization_id) and the gateway's redirect back in the state; another
	// organisation's id is refused as unknown.
	auth.POST("/mercadopago", g.Authz.RequireNamed(authz.ManageOrganization, func(c *gin.Context) string {
		return c.PostForm("organization_id")
	}), h.begin)
	auth.GET("/mercadopago/callback", g.Authz.RequireNamed(authz.ManageOrganization, func(c *gin.Context) string {
		return StateOrganization(c.Query("state"))
	}), h.callback)
}

// begin is POST /auth/mercadopago: a form post (authenticity_token, return_to) answered with a 303
// to MercadoPago's authorization page.
func (h Handler) begin(c *gin.Context) {
	scope, err := authz.Scope(c.Request.Context())
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	to, err := h.s.Begin(c.Request.Context(), scope, authz.User(c).ID, c.PostForm("return_to"))
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, to)
}

// callback is GET /auth/mercadopago/callback: the gateway's redirect back, answered with a 303 to
// the page the connection started on, with ?connected=mercadopago or ?error=<code>.
func (h Handler) callback(c *gin.Context) {
	ctx := c.Request.Context()
	scope, err := authz.Scope(ctx)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	returnTo, err := h.s.Complete(ctx, scope, authz.User(c).ID,
		Callback{Code: c.Query("code"), State: c.Query("state"), Error: c.Query("error")})
	q := url.Values{}
	var ce *CodeError
	switch {
	case err == nil:
		q.Set("connected", connections.MercadoPago)
	case errors.As(err, &ce):
		h.s.Log.InfoContext(ctx, "gateway connection refused", "organization", scope.OrgID, "code", ce.Code, "error", ce.Err)
		q.Set("error", ce.Code)
	default:
		h.s.Log.ErrorContext(ctx, "gateway connection failed", "organization", scope.OrgID, "error", err)
		q.Set("error", "gateway.unavailable")
	}
	c.Redirect(http.StatusSeeOther, returnPaths[returnTo]+"?"+q.Encode())
}
