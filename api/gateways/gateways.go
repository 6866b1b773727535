// Package gateways connects an organisation to its own payment gateway accounts (issue #12): the
// list, MercadoPago's OAuth authorization-code flow with PKCE, CentralPos's authorization code, and
// deletion. Credentials are kept by internal/connections, sealed; no answer ever carries them.
package gateways

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/centralpos"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants"
)

// Where a connection started, and so where the callback returns.
const (
	ReturnOnboarding = "onboarding"
	ReturnSettings   = "settings"
)

// returnPaths are the web pages a finished (or failed) connection lands on.
var returnPaths = map[string]string{
	ReturnOnboarding: "/account/onboarding/payment_gateways",
	ReturnSettings:   "/manage/settings/gateways",
}

// CallbackPath is where the gateway sends the account holder back (the OAuth redirect_uri).
const CallbackPath = "/auth/mercadopago/callback"

// Onboarding completes the onboarding workflow's gateway step (onboarding.Client).
type Onboarding interface {
	GatewayConnected(ctx context.Context, orgID uuid.UUID) error
}

// Refresher keeps a connection's credentials fresh (gatewayrefresh.Client): started on every
// connection, restarted on a reconnection.
type Refresher interface {
	Watch(ctx context.Context, orgID, connectionID uuid.UUID) error
}

// Service connects, lists and deletes connections.
type Service struct {
	Store      *connections.Store
	OAuth      gateway.OAuth         // MercadoPago
	CentralPos gateway.CodeConnector // nil: CentralPos is not offered
	Onboarding Onboarding
	Refresher  Refresher
	PublicURL  string // the callback's origin
	Log        *slog.Logger
}

// Connection is a connection as the API shows it: never its tokens.
type Connection struct {
	ID          uuid.UUID `json:"id"`
	Status      string    `json:"status"`
	ActivatedAt time.Time `json:"activated_at"`
	AccountName string    `json:"account_name"`
	LiveMode    bool      `json:"live_mode"`
	// ReceivesNewDonations marks the connection new donations charge through
	// (connections.Store.ActiveConnection with no gateway, as connections.Clients.ForOrganization reads it).
	ReceivesNewDonations bool `json:"receives_new_donations"`
}

func present(c connections.Connection) *Connection {
	return &Connection{ID: c.ID, Status: c.Status, ActivatedAt: c.ActivatedAt.UTC(), AccountName: c.AccountName, LiveMode: c.LiveMode}
}

// Gateway is one gateway of the list: enabled when the organisation has a connection to it (its
// status says whether it needs reconnecting).
type Gateway struct {
	ID         string      `json:"id"`
	Enabled    bool        `json:"enabled"`
	Connection *Connection `json:"connection"`
}

// List is GET /manage/api/payment_gateways.
type List struct {
	// OrganizationID is the organisation whose gateways these are: the connection form posts it back,
	// so the connection is made for the organisation the page shows.
	OrganizationID uuid.UUID `json:"organization_id"`
	Gateways       []Gateway `json:"gateways"`
}

// Created answers a new connection with 201.
type Created struct{ *Connection }

// StatusCode is 201.
func (Created) StatusCode() int { return http.StatusCreated }

// offered is the gateways an organisation may connect, in the page's order.
func (s *Service) offered() []string {
	if s.CentralPos == nil {
		return []string{connections.MercadoPago}
	}
	return []string{connections.MercadoPago, connections.CentralPos}
}

// List answers every offered gateway with the organisation's connection to it, if any.
func (s *Service) List(ctx context.Context, scope tenants.Scope, _ *struct{}) (*List, error) {
	conns, err := s.Store.List(ctx, scope)
	if err != nil {
		return nil, err
	}
	// The mark is read through the query charges use, so the page cannot disagree with them.
	receiving, err := s.Store.ActiveConnection(ctx, scope, "")
	if errors.Is(err, connections.ErrNotConnected) {
		receiving, err = connections.Connection{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := &List{OrganizationID: scope.OrgID, Gateways: []Gateway{}}
	for _, id := range s.offered() {
		g := Gateway{ID: id}
		for _, c := range conns {
			if c.Gateway == id {
				g.Enabled, g.Connection = true, present(c)
				g.Connection.ReceivesNewDonations = c.ID == receiving.ID
			}
		}
		out.Gateways = append(out.Gateways, g)
	}
	return out, nil
}

// CodeRequest is POST /manage/api/payment_gateways/centralpos.
type CodeRequest struct {
	Token string `json:"token"`
}

// Validate requires the code.
func (r *CodeRequest) Validate() error {
	if r.Token == "" {
		return apierror.Validation(map[string]string{"token": "gateway.token_required"})
	}
	return nil
}

// ConnectCentralPos exchanges the account holder's authorization code for credentials and stores them.
func (s *Service) ConnectCentralPos(ctx context.Context, scope tenants.Scope, r *CodeRequest) (*Created, error) {
	if s.CentralPos == nil {
		return nil, apierror.NotFound()
	}
	creds, err := s.CentralPos.Connect(ctx, r.Token)
	if errors.Is(err, gateway.ErrInvalidGrant) {
		return nil, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "gateway.centralpos_invalid_code",
			Fields: map[string]string{"token": "gateway.centralpos_invalid_code"}, Err: err}
	}
	if err != nil {
		return nil, &apierror.Error{Status: http.StatusBadGateway, Code: "gateway.unavailable", Err: err}
	}
	if creds.Country != scope.Country {
		// Not ours to keep: the account belongs elsewhere, so the link is undone at once.
		s.revoke(ctx, connections.CentralPos, creds)
		return nil, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "gateway.account_country_mismatch",
			Params: []any{scope.Country}}
	}
	c, err := s.connected(ctx, scope, connections.CentralPos, creds)
	if err != nil {
		return nil, err
	}
	return &Created{present(c)}, nil
}

// connected stores credentials, completes the onboarding step and starts their refresh.
func (s *Service) connected(ctx context.Context, scope tenants.Scope, gw string, creds gateway.Credentials) (connections.Connection, error) {
	c, err := s.Store.Save(ctx, scope, gw, creds)
	if err != nil {
		return c, err
	}
	s.Log.InfoContext(ctx, "gateway connected", "organization", scope.OrgID, "gateway", gw, "connection", c.ID, "account", c.AccountID)
	if err := s.Onboarding.GatewayConnected(ctx, scope.OrgID); err != nil {
		return c, fmt.Errorf("onboarding: %w", err)
	}
	if creds.RefreshToken != "" {
		if err := s.Refresher.Watch(ctx, scope.OrgID, c.ID); err != nil {
			return c, fmt.Errorf("refresh: %w", err)
		}
	}
	return c, nil
}

// DeleteRequest names the connection.
type DeleteRequest struct {
	ID string `path:"id" json:"-"`
}

// Delete removes a connection for good and revokes it at the gateway where the gateway can.
func (s *Service) Delete(ctx context.Context, scope tenants.Scope, r *DeleteRequest) (*struct{}, error) {
	id, err := uuid.Parse(r.ID)
	if err != nil {
		return nil, apierror.NotFound()
	}
	c, creds, err := s.Store.Delete(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	s.Log.InfoContext(ctx, "gateway connection deleted", "organization", scope.OrgID, "gateway", c.Gateway, "connection", c.ID)
	s.revoke(ctx, c.Gateway, creds)
	return nil, nil
}

// revoke ends a link at the gateway where it can (CentralPos); MercadoPago has no revocation an
// application can call, so its tokens simply go (the account holder removes the app on their side).
// A failure is logged: the connection is gone on our side either way.
func (s *Service) revoke(ctx context.Context, gw string, creds gateway.Credentials) {
	if gw != connections.CentralPos || s.CentralPos == nil {
		return
	}
	if err := s.CentralPos.Revoke(ctx, creds); err != nil {
		s.Log.WarnContext(ctx, "gateway revoke failed", "gateway", gw, "account", creds.AccountID, "error", err)
	}
}

// Begin starts a MercadoPago connection: a state bound to the identity and organisation, and the
// authorization page's URL to send the browser to.
func (s *Service) Begin(ctx context.Context, scope tenants.Scope, identity uuid.UUID, returnTo string) (string, error) {
	if _, ok := returnPaths[returnTo]; !ok {
		returnTo = ReturnSettings
	}
	a, _, err := s.Store.BeginOAuth(ctx, scope, connections.MercadoPago, identity, returnTo)
	if err != nil {
		return "", err
	}
	a.RedirectURI = s.PublicURL + CallbackPath
	// The state names its organisation, so the gateway's redirect back (which carries nothing else
	// of ours) acts for the organisation the connection was started for (StateOrganization).
	a.State = scope.OrgID.String() + stateSeparator + a.State
	return s.OAuth.AuthorizeURL(a), nil
}

const stateSeparator = "."

// StateOrganization is the organisation a callback's state names ("" for a state without one).
func StateOrganization(state string) string {
	org, _, _ := strings.Cut(state, stateSeparator)
	return org
}

// Callback is what the gateway sends back to CallbackPath.
type Callback struct {
	Code, State, Error string
}

// Complete finishes a MercadoPago connection: it takes the state once, exchanges the code with its
// PKCE verifier and stores the credentials. It answers where to return and, on failure, the error
// code to show there (nothing stored).
func (s *Service) Complete(ctx context.Context, scope tenants.Scope, identity uuid.UUID, cb Callback) (returnTo string, err error) {
	_, state, _ := strings.Cut(cb.State, stateSeparator)
	verifier, returnTo, err := s.Store.UseOAuthState(ctx, scope, connections.MercadoPago, identity, state)
	if returnTo == "" {
		returnTo = ReturnSettings
	}
	switch {
	case cb.Error != "":
		// The account holder said no (or the gateway refused the request): the state is spent either way.
		return returnTo, codeError("gateway.oauth_denied", errors.New(cb.Error))
	case errors.Is(err, connections.ErrStateInvalid):
		return returnTo, codeError("gateway.oauth_state_invalid", err)
	case err != nil:
		return returnTo, err
	case cb.Code == "":
		return returnTo, codeError("gateway.oauth_invalid_grant", errors.New("no code"))
	}
	creds, err := s.OAuth.Exchange(ctx, cb.Code, verifier, s.PublicURL+CallbackPath)
	if errors.Is(err, gateway.ErrInvalidGrant) {
		return returnTo, codeError("gateway.oauth_invalid_grant", err)
	}
	if err != nil {
		return returnTo, codeError("gateway.unavailable", err)
	}
	if creds.Country != scope.Country {
		return returnTo, codeError("gateway.account_country_mismatch", fmt.Errorf("account of %q", creds.Country))
	}
	if _, err := s.connected(ctx, scope, connections.MercadoPago, creds); err != nil {
		return returnTo, err
	}
	return returnTo, nil
}

// CodeError is a failed connection the gateways page explains by its code.
type CodeError struct {
	Code string
	Err  error
}

func (e *CodeError) Error() string { return e.Code + ": " + e.Err.Error() }
func (e *CodeError) Unwrap() error { return e.Err }

func codeError(code string, err error) error { return &CodeError{Code: code, Err: err} }

func init() {
	i18n.Register(i18n.Catalog{
		"gateway.oauth_denied": {
			i18n.ES: "Cancelaste la conexión con MercadoPago. Puedes intentarlo de nuevo cuando quieras.",
			i18n.EN: "You cancelled the connection with MercadoPago. You can try again whenever you like.",
			i18n.PT: "Você cancelou a conexão com o MercadoPago. Pode tentar de novo quando quiser.",
		},
		"gateway.oauth_state_invalid": {
			i18n.ES: "La solicitud de conexión venció o ya se usó. Vuelve a conectar la pasarela desde esta página.",
			i18n.EN: "The connection request expired or was already used. Connect the gateway again from this page.",
			i18n.PT: "A solicitação de conexão expirou ou já foi usada. Conecte o gateway de novo a partir desta página.",
		},
		"gateway.oauth_invalid_grant": {
			i18n.ES: "MercadoPago rechazó la autorización (venció o ya se usó). Vuelve a conectar la pasarela.",
			i18n.EN: "MercadoPago refused the authorisation (it expired or was already used). Connect the gateway again.",
			i18n.PT: "O MercadoPago recusou a autorização (expirou ou já foi usada). Conecte o gateway de novo.",
		},
		"gateway.account_country_mismatch": {
			i18n.ES: "La cuenta de la pasarela es de otro país que tu organización. Conecta una cuenta de tu país.",
			i18n.EN: "The gateway account belongs to another country than your organisation. Connect an account from your country.",
			i18n.PT: "A conta do gateway é de outro país que a sua organização. Conecte uma conta do seu país.",
		},
		"gateway.unavailable": {
			i18n.ES: "No pudimos comunicarnos con la pasarela de pagos. Prueba de nuevo en unos minutos.",
			i18n.EN: "We could not reach the payment gateway. Please try again in a few minutes.",
			i18n.PT: "Não conseguimos falar com o gateway de pagamento. Tente de novo em alguns minutos.",
		},
		"gateway.token_required": {
			i18n.ES: "Ingresa el código de autorización.",
			i18n.EN: "Enter the authorisation code.",
			i18n.PT: "Informe o código de autorização.",
		},
		"gateway.centralpos_invalid_code": {
			i18n.ES: "CentralPos no reconoce ese código de autorización (puede haber vencido). Genera uno nuevo.",
			i18n.EN: "CentralPos does not recognise that authorisation code (it may have expired). Generate a new one.",
			i18n.PT: "A CentralPos não reconhece esse código de autorização (pode ter expirado). Gere um novo.",
		},
	})
}

// NewService builds the service with the platform's MercadoPago application and CentralPos
// partnership from the configuration (the sandbox in dev and test).
func NewService(cfg *config.Config, store *connections.Store, onboarding Onboarding, refresher Refresher, log *slog.Logger) (*Service, error) {
	oauth, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: cfg.GatewayURL, AuthURL: cfg.MPAuthURL,
		ClientID: cfg.MPClientID, ClientSecret: cfg.MPClientSecret})
	if err != nil {
		return nil, err
	}
	cp, err := centralpos.New(centralpos.Config{BaseURL: cfg.CentralPosURL, PartnerKey: cfg.CentralPosPartnerKey})
	if err != nil {
		return nil, err
	}
	return &Service{Store: store, OAuth: oauth, CentralPos: cp, Onboarding: onboarding, Refresher: refresher,
		PublicURL: cfg.PublicURL, Log: log}, nil
}

// ConnectSandbox connects the organisation to the sandbox gateway's account nickname through the
// same path as the API (Begin, the account holder's approval at the sandbox's authorization page,
// Complete): the demo seed and test fixtures connect organisations with it.
func (s *Service) ConnectSandbox(ctx context.Context, scope tenants.Scope, identity uuid.UUID, nickname string) error {
	to, err := s.Begin(ctx, scope, identity, ReturnSettings)
	if err != nil {
		return err
	}
	back, err := sandbox.Decide(ctx, to, nickname, sandboxauth.Sites[scope.Country], true)
	if err != nil {
		return err
	}
	_, err = s.Complete(ctx, scope, identity, Callback{Code: back.Query().Get("code"), State: back.Query().Get("state")})
	return err
}
