package charge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/tenants"
)

// Processor is a payment processor that charges on the organisation's behalf (integrated payments,
// internal/processing): every charge through it carries its statement descriptor, and an approved
// one owes its fee.
type Processor struct {
	ID         uuid.UUID
	Family     string // local_payments, global_payments
	Gateway    Gateway
	Descriptor string // prefix*value, as statements show it
	FeeBps     int32  // of each approved charge
}

// Route is who charges a donation: Processor when a rule routes its campaign to one (nil: the
// connected gateway), and Retry, the global processor a charge the connected gateway declines is
// retried through once (nil: none).
type Route struct {
	Processor *Processor
	Retry     *Processor
}

// Router decides a donation's route (internal/processing implements it).
type Router interface {
	Route(ctx context.Context, scope tenants.Scope, donationID uuid.UUID, currency string) (Route, error)
}

// processorAccount is a processor's account as the donation form charges it (processing.Account).
type processorAccount interface {
	ChargeProcessor() *Processor
}

// routable is a connected gateway that knows its organisations' router (Connected).
type routable struct {
	Gateway
	router Router
}

// WithRouter is g charging each donation where router routes it (Routed): the donation form's
// connected gateway, so its first charge is retried through the global processor as collection's
// are. A processor's account, or no router, is g itself.
func WithRouter(g Gateway, router Router) Gateway {
	if _, ok := g.(processorAccount); ok || router == nil {
		return g
	}
	return &routable{Gateway: g, router: router}
}

// Routed is the gateway a donation's transactions are charged and read back through: g itself when
// g knows no router (tests, billing) or the donation's route is the connected gateway alone; else
// the route's processor, or g retried through the global processor. A processor's account (the
// donation form's, processing.Account) charges through its processor. Charge applies it itself;
// callers that read payments back before charging (collection) read them through Routed too.
func Routed(ctx context.Context, scope tenants.Scope, g Gateway, donationID uuid.UUID, currency string) (Gateway, error) {
	if pa, ok := g.(processorAccount); ok { // the form already resolved the campaign's processor
		return &routed{route: Route{Processor: pa.ChargeProcessor()}, via: map[string]*Processor{}}, nil
	}
	rg, ok := g.(*routable)
	if !ok {
		return g, nil
	}
	if rg.router == nil {
		return rg.Gateway, nil
	}
	r, err := rg.router.Route(ctx, scope, donationID, currency)
	if err != nil {
		return nil, fmt.Errorf("route donation %s: %w", donationID, err)
	}
	if r.Processor == nil && r.Retry == nil {
		if rg.Gateway == nil {
			return nil, fmt.Errorf("donation %s: its card is at a processor that no longer routes it", donationID)
		}
		return rg.Gateway, nil
	}
	return &routed{connected: rg.Gateway, route: r, via: map[string]*Processor{}}, nil
}

// routed charges through a route and remembers which processor made each payment it saw, so the
// outcome is recorded with the processor's fee and descriptor.
type routed struct {
	connected Gateway // nil when the donation's card is at a processor only
	route     Route
	mu        sync.Mutex
	via       map[string]*Processor // by payment id; absent: the connected gateway's
}

func (r *routed) seen(p *Processor, ps ...gateway.Payment) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range ps {
		if p != nil {
			r.via[q.ID] = p
		}
	}
}

// processorOf is the processor that made a payment, nil for the connected gateway's.
func (r *routed) processorOf(paymentID string) *Processor {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.via[paymentID]
}

// through charges c through p (nil: the connected gateway) with p's descriptor.
func (r *routed) through(ctx context.Context, p *Processor, c gateway.Charge) (gateway.Payment, error) {
	g := r.connected
	if p != nil {
		g, c.Descriptor = p.Gateway, p.Descriptor
	}
	if g == nil {
		return gateway.Payment{}, errors.New("charge: no gateway charges this donation")
	}
	pay, err := g.Charge(ctx, c)
	if err == nil {
		r.seen(p, pay)
	}
	return pay, err
}

// Charge charges through the route's processor, or the connected gateway. A charge the connected
// gateway declines (a rejected payment, or a refusal before any payment) is retried once through the
// global processor under the same idempotency key and reference: the processor answers a repeated
// key with its first payment, and the connected gateway its decline, so however often the whole is
// repeated the period is charged at most once. An unknown outcome at the connected gateway is read
// back first: only a decline found there is retried.
func (r *routed) Charge(ctx context.Context, c gateway.Charge) (gateway.Payment, error) {
	if r.route.Processor != nil {
		return r.through(ctx, r.route.Processor, c)
	}
	p, err := r.through(ctx, nil, c)
	var unknown *gateway.UnknownOutcomeError
	if errors.As(err, &unknown) {
		found, ok, ferr := Find(ctx, r.connected, c.ExternalReference)
		if ferr != nil || !ok {
			return p, err // still unknown: never retried elsewhere while the first may have charged
		}
		p, err = found, nil
	}
	if r.route.Retry == nil || !declined(p, err) {
		return p, err
	}
	retried, rerr := r.through(ctx, r.route.Retry, c)
	var refused *gateway.Error
	if errors.As(rerr, &refused) && refused.Status < http.StatusInternalServerError {
		return p, err // the processor refused the card too: the first decline stands
	}
	return retried, rerr
}

// declined says whether the connected gateway declined a charge for good.
func declined(p gateway.Payment, err error) bool {
	var refused *gateway.Error
	if errors.As(err, &refused) {
		return refused.Status < http.StatusInternalServerError
	}
	return err == nil && (p.Status == gateway.StatusRejected || p.Status == gateway.StatusCancelled)
}

// FindPayments reads a reference's payments back through the route, newest first, the retry
// processor's first: once the connected gateway declined, the period's answer is the global
// processor's. A decline at the connected gateway with nothing yet at the global processor is not
// an answer (nothing is returned): the retry may not have been made yet, or its outcome was lost,
// and charging again with the same key settles which.
func (r *routed) FindPayments(ctx context.Context, ref string) ([]gateway.Payment, error) {
	if r.route.Processor != nil {
		ps, err := r.route.Processor.Gateway.FindPayments(ctx, ref)
		r.seen(r.route.Processor, ps...)
		return ps, err
	}
	ps, err := r.connected.FindPayments(ctx, ref)
	if err != nil || r.route.Retry == nil {
		return ps, err
	}
	p, ok := newestOrApproved(ps)
	if !ok || !declined(p, nil) {
		return ps, nil
	}
	retried, err := r.route.Retry.Gateway.FindPayments(ctx, ref)
	if err != nil {
		return nil, err
	}
	r.seen(r.route.Retry, retried...)
	return retried, nil
}

func newestOrApproved(ps []gateway.Payment) (gateway.Payment, bool) {
	for _, p := range ps {
		if p.Status == gateway.StatusApproved {
			return p, true
		}
	}
	if len(ps) == 0 {
		return gateway.Payment{}, false
	}
	return ps[0], true
}

// OutcomeFrom reads a payment g made or found: OutcomeOf, with the processor that made it when g is
// a route (Routed).
func OutcomeFrom(g Gateway, p gateway.Payment) Outcome {
	o := OutcomeOf(p)
	if r, ok := g.(*routed); ok {
		o.Processor = r.processorOf(p.ID)
	}
	return o
}
