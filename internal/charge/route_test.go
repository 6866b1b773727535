package charge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/cvault"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
)

type fixedRoute Route

func (r fixedRoute) Route(context.Context, tenants.Scope, uuid.UUID, string) (Route, error) {
	return Route(r), nil
}

// loseAnswers forwards a dLocal payment and loses its answer (lost) or the request itself (dropped)
// for the next n payments: what a timeout looks like from our side.
type loseAnswers struct {
	n       atomic.Int32
	dropped bool
}

func (l *loseAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/payments") || l.n.Add(-1) < 0 {
		return http.DefaultTransport.RoundTrip(req)
	}
	if l.dropped {
		return nil, errors.New("connection reset before the request was sent")
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		res.Body.Close()
	}
	return nil, errors.New("timeout awaiting the answer")
}

// routeWorld is a sandbox with the platform's MercadoPago account as the organisation's connected
// gateway and a dLocal merchant as its global processor.
type routeWorld struct {
	srv       *httptest.Server
	connected *mercadopago.Client
	global    *Processor
	login     string
	loss      *loseAnswers
}

func newRouteWorld(t *testing.T) *routeWorld {
	t.Helper()
	w := &routeWorld{srv: sandboxtest.Serve(t, sandbox.Options{}), loss: &loseAnswers{}}
	var err error
	w.connected, err = mercadopago.New(mercadopago.Config{BaseURL: w.srv.URL, AccessToken: sandbox.DefaultPlatformToken, Currency: "ARS"})
	require.NoError(t, err)
	cfg := dlocal.Config{BaseURL: w.srv.URL + "/dlocal", Login: sandbox.DefaultDLocalLogin, TransKey: sandbox.DefaultDLocalTransKey,
		Secret: sandbox.DefaultDLocalSecret, HTTPClient: &http.Client{Transport: w.loss}}
	m, err := dlocal.Onboard(context.Background(), cfg, "Fundación Sur", "AR", 549)
	require.NoError(t, err)
	acct, err := dlocal.NewAccount(cfg, m, "AR", "ARS")
	require.NoError(t, err)
	w.login = m.Login
	w.global = &Processor{ID: uuid.New(), Family: "global_payments", Gateway: acct, Descriptor: "APORTA*FUNDACION SUR", FeeBps: 549}
	return w
}

// vaultCard tokenises a card at the card vault, whose tokens any processor takes.
func (w *routeWorld) vaultCard(t *testing.T, holder string) string {
	t.Helper()
	v, err := cvault.New(cvault.Config{BaseURL: w.srv.URL, Key: "vault-key"})
	require.NoError(t, err)
	tok, err := v.Tokenize(context.Background(), cvault.Card{CountryCode: "AR", HolderName: holder, PAN: "4509953566233704",
		ExpirationMonth: 11, ExpirationYear: time.Now().Year() + 2, CVV: "123"})
	require.NoError(t, err)
	return tok.Token
}

func (w *routeWorld) routed(t *testing.T, r Route) Gateway {
	t.Helper()
	g, err := Routed(context.Background(), tenants.Scope{}, &routable{Gateway: w.connected, router: fixedRoute(r)}, uuid.New(), "ARS")
	require.NoError(t, err)
	return g
}

type ledgerPayment struct {
	ID         string `json:"id"`
	OrderID    string `json:"order_id"`
	Status     string `json:"status"`
	Descriptor string `json:"descriptor"`
	Fee        string `json:"fee"`
}

func (w *routeWorld) ledger(t *testing.T) []ledgerPayment {
	t.Helper()
	res, err := http.Get(w.srv.URL + "/__sandbox/dlocal/ledger?x_login=" + w.login)
	require.NoError(t, err)
	defer res.Body.Close()
	var l struct{ Payments []ledgerPayment }
	body, _ := io.ReadAll(res.Body)
	require.NoError(t, json.Unmarshal(body, &l), string(body))
	return l.Payments
}

func (w *routeWorld) connectedPayments(t *testing.T, ref string) []gateway.Payment {
	t.Helper()
	ps, err := w.connected.FindPayments(context.Background(), ref)
	require.NoError(t, err)
	return ps
}

func monthly(token string) gateway.Charge {
	ref := uuid.NewString() + "/2026-11"
	return gateway.Charge{IdempotencyKey: ref, ExternalReference: ref, Amount: money.New(250000, "ARS"), Description: "Donación mensual",
		Email: "ana@example.org", Document: "20123456789", Token: token, PaymentMethodID: "visa"}
}

// A charge the connected gateway declines is retried once through the global processor, with the
// processor's descriptor; repeating the whole charges nobody again.
func TestDeclinedChargeIsRetriedOnceThroughTheGlobalProcessor(t *testing.T) {
	ctx := context.Background()
	w := newRouteWorld(t)
	g := w.routed(t, Route{Retry: w.global})
	c := monthly(w.vaultCard(t, "RISK")) // MercadoPago's fraud engine refuses it; dLocal takes it

	p, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	o := OutcomeFrom(g, p)
	require.Same(t, w.global, o.Processor, "recorded with the global processor's fee and descriptor")
	require.Equal(t, int64(13725), Fee(250000, o.Processor.FeeBps)) // 5.49% of 2500.00

	require.Len(t, w.connectedPayments(t, c.ExternalReference), 1)
	require.Equal(t, gateway.StatusRejected, w.connectedPayments(t, c.ExternalReference)[0].Status)
	l := w.ledger(t)
	require.Len(t, l, 1)
	require.Equal(t, ledgerPayment{ID: p.ID, OrderID: c.ExternalReference, Status: "PAID", Descriptor: "APORTA*FUNDACION SUR", Fee: "137.25"}, l[0])

	// The same period again (a Temporal retry, a replayed activity): the same answers, no new payment.
	again, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, p.ID, again.ID)
	require.Len(t, w.ledger(t), 1)
	require.Len(t, w.connectedPayments(t, c.ExternalReference), 1)

	// Read back, the period's payment is the global processor's.
	found, ok, err := Find(ctx, w.routed(t, Route{Retry: w.global}), c.ExternalReference)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, p.ID, found.ID)
}

// An approval or a decline of the card itself at the connected gateway is not retried; a card the
// processor cannot take leaves the connected gateway's decline standing.
func TestOnlyTheConnectedGatewaysDeclinesAreRetried(t *testing.T) {
	ctx := context.Background()
	w := newRouteWorld(t)
	g := w.routed(t, Route{Retry: w.global})
	p, err := g.Charge(ctx, monthly(w.vaultCard(t, "APRO")))
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	require.Nil(t, OutcomeFrom(g, p).Processor)

	// FUND fails at every processor: retried once, still rejected, charged by nobody.
	c := monthly(w.vaultCard(t, "FUND"))
	p, err = g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusRejected, p.Status)
	require.Len(t, w.ledger(t), 1)
	require.Equal(t, "REJECTED", w.ledger(t)[0].Status)

	// A card the processor refuses (a token it never issued): the connected gateway's decline stands.
	c = monthly(w.vaultCard(t, "OTHE"))
	g2 := w.routed(t, Route{Retry: &Processor{ID: uuid.New(), Family: "global_payments", Gateway: refusingGateway{}, FeeBps: 549}})
	p, err = g2.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusRejected, p.Status)
	require.Nil(t, OutcomeFrom(g2, p).Processor)
}

type refusingGateway struct{}

func (refusingGateway) Charge(context.Context, gateway.Charge) (gateway.Payment, error) {
	return gateway.Payment{}, gateway.NewError(http.StatusBadRequest, "Token not found or inconsistent", []gateway.Cause{{Code: "5008"}})
}

func (refusingGateway) FindPayments(context.Context, string) ([]gateway.Payment, error) {
	return nil, nil
}

// The retry's answer is lost: reading back finds the processor's payment, and charging again
// answers it; a retry that never reached the processor is not an answer, and charging again makes it.
// Either way the period has one approved payment.
func TestTheRetrysUnknownOutcomeIsReadBack(t *testing.T) {
	ctx := context.Background()
	w := newRouteWorld(t)
	g := w.routed(t, Route{Retry: w.global})

	c := monthly(w.vaultCard(t, "RISK"))
	w.loss.n.Store(1)
	_, err := g.Charge(ctx, c)
	var unknown *gateway.UnknownOutcomeError
	require.ErrorAs(t, err, &unknown)
	found, ok, err := Find(ctx, g, c.ExternalReference)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, gateway.StatusApproved, found.Status)
	require.Same(t, w.global, OutcomeFrom(g, found).Processor)
	again, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, found.ID, again.ID)
	require.Len(t, w.ledger(t), 1)

	c = monthly(w.vaultCard(t, "RISK"))
	w.loss.n.Store(1)
	w.loss.dropped = true
	_, err = g.Charge(ctx, c)
	require.ErrorAs(t, err, &unknown)
	_, ok, err = Find(ctx, g, c.ExternalReference)
	require.NoError(t, err)
	require.False(t, ok, "a decline at the connected gateway with nothing at the processor is not the period's answer")
	p, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	require.Len(t, w.ledger(t), 2)
}

// The connected gateway's answer is lost: its payment is read back first, and only a decline found
// there goes on to the processor.
func TestTheConnectedGatewaysUnknownOutcomeIsReadBackBeforeRetrying(t *testing.T) {
	ctx := context.Background()
	w := newRouteWorld(t)
	g := w.routed(t, Route{Retry: w.global})
	res, err := http.Post(w.srv.URL+"/__sandbox/faults", "application/json", strings.NewReader(`{"mode":"error500","count":1,"after_commit":true}`))
	require.NoError(t, err)
	res.Body.Close()
	c := monthly(w.vaultCard(t, "RISK"))
	p, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	require.Len(t, w.connectedPayments(t, c.ExternalReference), 1)
	require.Len(t, w.ledger(t), 1)
}

// A campaign a rule routes to a processor is charged there alone, with its descriptor, never retried.
func TestRoutedCampaignIsChargedByItsProcessor(t *testing.T) {
	ctx := context.Background()
	w := newRouteWorld(t)
	g := w.routed(t, Route{Processor: w.global})
	c := monthly(w.vaultCard(t, "APRO"))
	p, err := g.Charge(ctx, c)
	require.NoError(t, err)
	require.Equal(t, gateway.StatusApproved, p.Status)
	require.Same(t, w.global, OutcomeFrom(g, p).Processor)
	require.Empty(t, w.connectedPayments(t, c.ExternalReference))
	require.Equal(t, "APORTA*FUNDACION SUR", w.ledger(t)[0].Descriptor)

	// Without a route, the connected gateway is the gateway itself.
	plain, err := Routed(ctx, tenants.Scope{}, &routable{Gateway: w.connected}, uuid.New(), "ARS")
	require.NoError(t, err)
	require.Same(t, w.connected, plain)
	none, err := Routed(ctx, tenants.Scope{}, &routable{Gateway: w.connected, router: fixedRoute{}}, uuid.New(), "ARS")
	require.NoError(t, err)
	require.Same(t, w.connected, none)
	_, err = Routed(ctx, tenants.Scope{}, &routable{router: fixedRoute{}}, uuid.New(), "ARS")
	require.Error(t, err, "a card saved at a processor that no longer routes its donation")
}
