// Package api is Aporta's HTTP server: the Gin router, its middleware and the domain handlers.
package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/account"
	"github.com/aporta/aporta/api/agency"
	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/bankaccounts"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/country"
	"github.com/aporta/aporta/api/courier"
	"github.com/aporta/aporta/api/dashboard"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/api/donation"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/export"
	"github.com/aporta/aporta/api/gatewaynotify"
	"github.com/aporta/aporta/api/gateways"
	"github.com/aporta/aporta/api/health"
	"github.com/aporta/aporta/api/integration"
	"github.com/aporta/aporta/api/kratosproxy"
	"github.com/aporta/aporta/api/middleware"
	"github.com/aporta/aporta/api/organization"
	"github.com/aporta/aporta/api/payouts"
	"github.com/aporta/aporta/api/processors"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/api/rates"
	"github.com/aporta/aporta/api/spa"
	"github.com/aporta/aporta/api/staff"
	"github.com/aporta/aporta/api/subscription"
	"github.com/aporta/aporta/api/tour"
	"github.com/aporta/aporta/api/user"
	"github.com/aporta/aporta/api/webhook"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/blob"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/portal"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/readiness"
	internalwebhook "github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/web"
	"github.com/aporta/aporta/workflows/agencysync"
	"github.com/aporta/aporta/workflows/billing"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/crmsync"
	"github.com/aporta/aporta/workflows/gatewayrefresh"
	"github.com/aporta/aporta/workflows/onboarding"
	subscriptionflow "github.com/aporta/aporta/workflows/subscription"
	"github.com/aporta/aporta/workflows/webhooks"
)

// Deps are the server's collaborators, built once by `aporta serve`.
type Deps struct {
	Config   *config.Config
	Tenants  *tenants.Tenants
	Temporal client.Client
	Log      *slog.Logger
}

// groups are the route groups domains attach to.
type groups struct {
	public, manage, account *gin.RouterGroup
}

// apiPrefixes answer JSON, never the web app, for unknown paths.
var apiPrefixes = web.APIPrefixes()

// NewRouter wires every route.
func NewRouter(d Deps) (*gin.Engine, error) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.ContextWithFallback = true
	r.HandleMethodNotAllowed = true
	// Only the configured proxies' X-Forwarded-For is believed; otherwise anyone could pick the IP
	// every per-IP limit counts.
	if err := r.SetTrustedProxies(d.Config.TrustedProxies); err != nil {
		return nil, err
	}
	csrf := middleware.NewCSRF(d.Config.Secret, strings.HasPrefix(d.Config.PublicURL, "https://"))

	r.Use(middleware.RequestID(), middleware.AccessLog(d.Log), middleware.Recovery(), middleware.Locale(),
		// Browsers send cards to each tokeniser: the gateways', the processor's and the card vault's.
		middleware.SecurityHeaders([]string{d.Config.GatewayPublicURL, d.Config.CentralPosPublicURL, d.Config.DLocalPublicURL,
			d.Config.CVaultPublicURL}, d.Config.MPAuthURL, d.Config.Env == "production"))
	r.Use(ratelimit.NewStore(d.Tenants.Directory()).Middleware())

	r.GET("/healthz", health.Healthz)

	kratos, err := kratosproxy.New(d.Config.KratosPublic)
	if err != nil {
		return nil, err
	}
	r.Any(kratosproxy.Prefix+"/*path", kratos)

	hc := identity.NewHTTPClient(5 * time.Second)
	keto := identity.NewKeto(d.Config.KetoRead, d.Config.KetoWrite, hc)
	sessions := identity.NewSessions(d.Config.KratosPublic, hc)
	az := authz.New(sessions, keto, d.Tenants)
	// public and every group under it refuse card data in any field of a JSON body: a number typed
	// into a document or note field must never be stored or exported.
	g := groups{
		public: r.Group("/", middleware.BodyLimit(d.Config.MaxBodyBytes), middleware.RefuseCardData()),
	}
	// The manage and account areas are cookie-authenticated, so every mutating call carries the
	// page's CSRF token, checked before the session so a forged request learns nothing.
	g.manage = g.public.Group("/manage/api", csrf.Require(), az.Authenticate())
	g.account = g.public.Group("/account/api", csrf.Require(), az.Authenticate())

	// Uploads get a group of their own: the same guards, a larger body limit instead of the default.
	uploads := func(prefix string, limit gin.HandlerFunc) *gin.RouterGroup {
		return r.Group(prefix, limit, csrf.Require(), az.Authenticate())
	}
	settings := g.public.Group("/manage", csrf.Require(), az.Authenticate()) // the spec's /manage/organization paths
	groups := endpoint.Groups{
		Public: g.public, Manage: g.manage, Account: g.account, Settings: settings,
		Staff: g.public.Group("/staff/api", csrf.Require(), az.Authenticate()), Upload: uploads, Authz: az,
	}
	bucket, err := blob.Open(context.Background(), d.Config.BlobURL)
	if err != nil {
		return nil, err
	}
	conns, err := connections.Open(context.Background(), d.Config)
	if err != nil {
		return nil, err
	}
	// Every organisation charges through its own connected account (the platform's token is for
	// the platform's own billing only).
	gwClients := &connections.Clients{Store: conns, Tenants: d.Tenants, BaseURL: d.Config.GatewayURL, PublicURL: d.Config.PublicURL,
		CentralPos: centralpos.Config{BaseURL: d.Config.CentralPosURL, PartnerKey: d.Config.CentralPosPartnerKey},
		Refresh:    gatewayrefresh.Client{Temporal: d.Temporal}, Log: d.Log} // a refused token is refreshed at once
	procs := processing.New(d.Config, conns.Box) // integrated payments' processors, where rules route donations
	charges := donation.ConnectedGateways{Clients: gwClients, Processors: procs}
	onboard := onboarding.Client{Temporal: d.Temporal}

	// Domain routes: one block per domain.
	// Kratos's courier posts the messages it wrote, not text from donors or operators: no card guard.
	courier.Routes(r.Group("/", middleware.BodyLimit(d.Config.MaxBodyBytes)), d.Config, d.Tenants)
	account.NewHandler(account.Deps{Config: d.Config, Tenants: d.Tenants, Temporal: d.Temporal, Authz: az}).Mount(groups)
	country.NewHandler(d.Tenants).Mount(groups)
	user.NewHandler(user.Deps{Config: d.Config, Tenants: d.Tenants, Keto: keto, CSRF: csrf.Require()}).Mount(groups)

	docs := document.NewService(d.Tenants, bucket, onboard)
	orgs := organization.NewService(docs, bucket)
	document.NewHandler(docs, orgs.Present).Mount(groups)
	organization.NewHandler(orgs).Mount(groups)
	tour.NewHandler().Mount(groups)
	platform, err := billing.NewPlatformAccount(d.Config)
	if err != nil {
		return nil, err
	}
	mepRates := mep.NewRates(d.Tenants.Directory(), mep.HTTP{URL: d.Config.MEPURL, Name: d.Config.MEPSource})
	plans := subscription.NewHandler(d.Tenants, d.Temporal, platform, &billing.Activities{Tenants: d.Tenants, Platform: platform,
		Rates: mepRates, Plans: subscriptionflow.Plans{Temporal: d.Temporal}, Mail: outbox.NewMailer(d.Config, d.Tenants.Directory()), PublicURL: d.Config.PublicURL},
		subscription.Tokenizer{URL: d.Config.GatewayPublicURL, PublicKey: d.Config.GatewayPublicKey})
	console := staff.NewHandler(d.Tenants.Directory(), docs, orgs, keto, onboard, plans)
	console.Mount(groups)
	rates.NewHandler(mepRates, d.Tenants).
		Mount(groups, console.RequireStaff())
	r.GET("/readyz", health.Readyz(readinessChecks(d), 3*time.Second, staffOrLocal(sessions, console)))

	campaigns := campaign.NewService(d.Tenants)
	// A form's limits, card brands and public key come from its organisation's account, read once per request.
	campaigns.Accounts, campaigns.Log = campaign.RoutedAccounts(procs, campaign.ConnectedAccounts(gwClients)), d.Log
	campaigns.Tokenizers = map[string]string{connections.MercadoPago: d.Config.GatewayPublicURL, connections.CentralPos: d.Config.CentralPosPublicURL,
		charge.ProcessorGateway: d.Config.DLocalPublicURL}
	campaigns.Vault = campaign.Vault{URL: d.Config.CVaultPublicURL, Key: d.Config.CVaultKey}
	campaign.NewHandler(campaigns, campaign.Options{Covers: bucket, PublicURL: d.Config.PublicURL, Log: d.Log}).Mount(groups)
	donation.NewHandler(donation.NewService(donation.Deps{
		Forms: campaigns, Tenants: d.Tenants, Gateways: charges, Retries: procs, Recurring: collection.Starter{Temporal: d.Temporal},
		Secret: d.Config.Secret, Mail: outbox.NewMailer(d.Config, d.Tenants.Directory()), PublicURL: d.Config.PublicURL, Log: d.Log,
		BankDebits: procs,
	})).Mount(groups)
	manageDeps := donation.ManageDeps{Tenants: d.Tenants, Temporal: d.Temporal, Gateways: charges, Forms: campaigns, Secret: d.Config.Secret,
		Retries: procs, Log: d.Log}
	donation.NewManageHandler(manageDeps).Mount(groups)
	// The donor portal: its own session cookie, not Kratos's (issue 20).
	donation.NewPortalHandler(donation.PortalDeps{Manage: donation.NewManageService(manageDeps), Forms: campaigns, Tenants: d.Tenants,
		Keys: portal.Keys{Secret: d.Config.Secret}, Mail: outbox.NewMailer(d.Config, d.Tenants.Directory()), PublicURL: d.Config.PublicURL,
		Secure: strings.HasPrefix(d.Config.PublicURL, "https://")}).Mount(g.public.Group("/api/public/portal", csrf.Require()))
	connector, err := gateways.NewService(d.Config, conns, onboard, gatewayrefresh.Client{Temporal: d.Temporal}, d.Log)
	if err != nil {
		return nil, err
	}
	// The OAuth redirects are browser navigations: a form post carrying the page's token, and the
	// gateway's redirect back (a GET).
	gateways.NewHandler(connector).Mount(groups, g.public.Group("/auth", csrf.RequireForm(), az.Authenticate()))
	(&gatewaynotify.Handler{Accounts: gwClients, Organizations: d.Tenants, Secret: d.Config.MPWebhookSecret, Log: d.Log}).Mount(groups)
	bankaccounts.NewHandler(conns.Box).Mount(groups)
	processors.Handler{Merchants: procs}.Mount(groups)
	payouts.Mount(groups)
	dashboard.NewHandler().Mount(groups)
	plans.Mount(groups)
	export.NewHandler(d.Temporal, bucket, d.Config.Secret).Mount(groups)
	crmVault, err := crmlink.NewVault(context.Background(), d.Config)
	if err != nil {
		return nil, err
	}
	integration.NewHandler(&integration.Service{Vault: crmVault, Sync: crmsync.Client{Temporal: d.Temporal}}).Mount(groups)
	// Webhook secrets share the CRM secrets' box (the gateway tokens' keys).
	webhook.NewHandler(&webhook.Service{Vault: internalwebhook.Vault{Box: crmVault.Box}, Guard: internalwebhook.NewGuard(d.Config),
		Workers: webhooks.Client{Temporal: d.Temporal}}).Mount(groups)
	// The agencies' work area: its own prefix, the same guards as the manage area.
	agency.NewHandler(agency.Deps{Config: d.Config, Tenants: d.Tenants, Keto: keto,
		Cards: func(ctx context.Context, orgID uuid.UUID, currency string) (gateway.Customers, string, error) {
			c, conn, err := gwClients.ForOrganization(ctx, orgID, "", currency)
			return c, conn.Gateway, err
		},
		Syncs: agencysync.Client{Temporal: d.Temporal}, Tokenizers: campaigns.Tokenizers, Connections: conns,
		Donations: donation.ForAgencies{S: donation.NewManageService(manageDeps)},
	}).Mount(groups, g.public.Group("/agency/api", csrf.Require(), az.Authenticate()))

	app := spa.New(web.Dist(), csrf.Token)
	app.CheckForms(func(ctx context.Context, slug string) (bool, error) {
		_, err := campaigns.FormBySlug(ctx, slug)
		if errors.Is(err, campaign.ErrNotFound) {
			return false, nil
		}
		return err == nil, err
	})
	// POST /d/:slug is the donation API; its GET is the form's page (without this, Gin answers 405).
	g.public.Match([]string{http.MethodGet, http.MethodHead}, "/d/:slug", app.Serve)
	r.NoRoute(func(c *gin.Context) {
		// The dev tools (the mailbox page and its outbox API) do not exist outside dev and test.
		if !d.Config.IsDev() && strings.HasPrefix(c.Request.URL.Path, "/dev/") {
			apierror.Abort(c, apierror.NotFound())
			return
		}
		for _, p := range apiPrefixes {
			if strings.HasPrefix(c.Request.URL.Path, p) {
				apierror.Abort(c, apierror.NotFound())
				return
			}
		}
		if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
			apierror.Abort(c, apierror.NotFound())
			return
		}
		app.Serve(c)
	})
	r.NoMethod(func(c *gin.Context) {
		apierror.Abort(c, apierror.New(http.StatusMethodNotAllowed, "method_not_allowed"))
	})
	return r, nil
}

func readinessChecks(d Deps) []health.Check {
	hc := &http.Client{Timeout: 2 * time.Second} // shorter than the readiness deadline
	return append(readiness.Stores(d.Tenants, d.Temporal),
		health.Check{Name: "kratos", Probe: readiness.HTTP(hc, d.Config.KratosAdmin+"/health/ready")},
		health.Check{Name: "keto", Probe: readiness.HTTP(hc, d.Config.KetoRead+"/health/ready")})
}

// staffOrLocal lets staff (with their second factor, as the console requires) and probes on the
// machine itself see /readyz's checks.
func staffOrLocal(sessions *identity.Sessions, console *staff.Handler) func(*gin.Context) bool {
	return func(c *gin.Context) bool {
		if readiness.Local(c.Request) {
			return true
		}
		u, err := sessions.FromCookie(c.Request.Context(), c.GetHeader("Cookie"))
		if err != nil || u.Session.AAL != identity.AAL2 {
			return false
		}
		ok, err := console.IsStaff(c.Request.Context(), u.ID)
		return err == nil && ok
	}
}

// Serve runs the HTTP server until ctx ends, then drains in-flight requests.
func Serve(ctx context.Context, d Deps) error {
	router, err := NewRouter(d)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Addr:              d.Config.HTTPAddr,
		Handler:           router,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute, // document uploads are large
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	d.Log.Info("serving", "addr", d.Config.HTTPAddr, "url", d.Config.PublicURL)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), d.Config.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
