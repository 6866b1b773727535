// Package charge is the one way Aporta charges a donation's transaction and keeps its record: the
// gateway idempotency key and external reference derive from the transaction, an outcome lost on
// the way (a timeout, a 5xx) is read back from the gateway by that reference before anything is
// charged again, and the outcome is stored on the transaction together with the commission an
// approval owes, in one database transaction. The donation form's first charge, the first-charge
// guard (workflows/firstcharge), monthly collection and collect-now (workflows/collection) all
// charge through it.
package charge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/webhook"
	"github.com/aporta/aporta/tenants"
)

// Gateway is what charging needs from a payment gateway.
type Gateway interface {
	Charge(ctx context.Context, c gateway.Charge) (gateway.Payment, error)
	FindPayments(ctx context.Context, externalReference string) ([]gateway.Payment, error)
}

// Gateways gives the gateway account an organisation collects with: its connection to gw (the
// gateway a saved card is at: connections.MercadoPago, connections.CentralPos), or with gw empty
// the connection its forms charge through.
type Gateways interface {
	Gateway(ctx context.Context, orgID uuid.UUID, gw, currency string) (Gateway, error)
}

// GatewaysFunc adapts a function to Gateways.
type GatewaysFunc func(ctx context.Context, orgID uuid.UUID, gw, currency string) (Gateway, error)

// Gateway calls f.
func (f GatewaysFunc) Gateway(ctx context.Context, orgID uuid.UUID, gw, currency string) (Gateway, error) {
	return f(ctx, orgID, gw, currency)
}

// Connected charges each organisation through its own connected account, or where router routes a
// donation (Routed; nil: never a processor); an organisation without an active connection to the
// gateway gets connections.ErrNotConnected. A card saved at a processor (gw Processors) has no
// connection: its donation's route charges it.
func Connected(clients *connections.Clients, router Router) Gateways {
	return GatewaysFunc(func(ctx context.Context, orgID uuid.UUID, gw, currency string) (Gateway, error) {
		if gw == ProcessorGateway && router != nil {
			return &routable{router: router}, nil
		}
		c, _, err := clients.ForOrganization(ctx, orgID, gw, currency)
		if err != nil {
			return nil, err // not a nil *Client in a non-nil interface
		}
		return &routable{Gateway: c, router: router}, nil
	})
}

// ProcessorGateway is the gateway name of cards saved at an integrated payments processor.
const ProcessorGateway = "dlocal"

// Transaction is the row a charge settles.
type Transaction struct {
	OrgID      uuid.UUID
	ID         uuid.UUID
	DonationID uuid.UUID
	Period     string // YYYY-MM of a monthly donation's charge; "" for a one-time donation
	Attempt    int    // 1… within the period
	Amount     int64  // minor units
	Currency   string
	// PaymentMethodID is the saved card; a row inserted by Record keeps it (nil: none).
	PaymentMethodID *uuid.UUID
}

// FirstTransactionID is the id of a donation's first transaction: derived from the donation, so
// every retry of a form submission writes and charges the same transaction.
func FirstTransactionID(donationID uuid.UUID) uuid.UUID {
	return uuid.NewSHA1(donationID, []byte("first-transaction"))
}

// AttemptID is the id of a collection attempt's transaction. (The first attempt of a monthly
// donation's first period may already exist with its FirstTransactionID: Record finds it.)
func AttemptID(donationID uuid.UUID, period string, attempt int) uuid.UUID {
	return uuid.NewSHA1(donationID, []byte(fmt.Sprintf("transaction/%s/%d", period, attempt)))
}

// Key is a charge's identity at the gateway.
type Key struct {
	Idempotency string // the gateway refuses a second payment under it and answers the first
	Reference   string // the external reference its payment is read back by
}

// Key derives the transaction's gateway key. A one-time donation's transaction charges under
// "aporta-tx-<id>" with its id as the reference; a monthly one under "<donation>/<YYYY-MM>" for a
// period's first attempt and "<donation>/<YYYY-MM>/<n>" for the retries, as key and reference
// alike, so collection finds a period's payment whoever charged it (the form charges the first
// period of a monthly donation made with an immediate charge). Payments already at the gateway
// are read back by these keys: they never change.
func (t Transaction) Key() Key {
	if t.Period == "" {
		return Key{Idempotency: "aporta-tx-" + t.ID.String(), Reference: t.ID.String()}
	}
	k := t.DonationID.String() + "/" + t.Period
	if t.Attempt > 1 {
		k = fmt.Sprintf("%s/%d", k, t.Attempt)
	}
	return Key{Idempotency: k, Reference: k}
}

// Outcome is what the gateway decided about a transaction.
type Outcome struct {
	Status       gateway.Status
	Detail       string // the gateway's status detail
	PaymentID    string
	PausedReason string     // a refusal that must pause a monthly donation (gateway.PausedReason)
	At           time.Time  // when the gateway made the payment
	Processor    *Processor // the processor that made the payment (OutcomeFrom); nil: the connected gateway
	// Receipt is the receipt its record issued, as receipt.Mailer e-mails it (migrations/shard/0650); nil when the
	// record issued none (not an approval, or recorded before) or the outcome is not recorded yet.
	Receipt json.RawMessage
}

// Approved says whether the transaction is paid.
func (o Outcome) Approved() bool { return o.Status == gateway.StatusApproved }

// Pending says whether the gateway has not decided yet.
func (o Outcome) Pending() bool {
	return o.Status == gateway.StatusPending || o.Status == gateway.StatusInProcess || o.Status == gateway.StatusInMediation
}

// transactionStatuses are the statuses a transaction row may hold (spec §4).
var transactionStatuses = map[gateway.Status]bool{
	gateway.StatusApproved: true, gateway.StatusCancelled: true, gateway.StatusChargedBack: true,
	gateway.StatusInMediation: true, gateway.StatusInProcess: true, gateway.StatusPending: true,
	gateway.StatusRefunded: true, gateway.StatusRejected: true, gateway.StatusPlanned: true,
	gateway.StatusNonExistent: true,
}

// OutcomeOf reads a gateway payment. A provider state we do not model yet (authorized…) is
// pending: not paid.
func OutcomeOf(p gateway.Payment) Outcome {
	o := Outcome{Status: p.Status, Detail: p.StatusDetail, PaymentID: p.ID, PausedReason: string(p.PausedReason), At: p.CreatedAt}
	if !transactionStatuses[o.Status] {
		o.Status = gateway.StatusPending
	}
	if o.At.IsZero() {
		o.At = time.Now()
	}
	return o
}

// Find reads back the payment made under a reference: the approved one if there is one, else the
// newest. ok is false when the gateway has none.
func Find(ctx context.Context, g Gateway, ref string) (p gateway.Payment, ok bool, err error) {
	ps, err := g.FindPayments(ctx, ref)
	if err != nil {
		return p, false, err
	}
	p, ok = newestOrApproved(ps)
	return p, ok, nil
}

// Charge charges t once and records the outcome (Record). c is the charge without its key and
// reference, which come from t.Key. When the gateway's answer is lost, the payment is read back by
// the reference. Unrecorded, it returns the gateway's refusal (*gateway.Error: nothing was
// charged) and an outcome the read-back cannot find yet (*gateway.UnknownOutcomeError): charging
// again later with the same key is safe, since the gateway answers the first payment if there was
// one.
func Charge(ctx context.Context, scope tenants.Scope, g Gateway, t Transaction, c gateway.Charge) (Outcome, error) {
	return ChargeAnd(ctx, scope, g, t, c, nil)
}

// ChargeAnd is Charge recording with RecordAnd.
func ChargeAnd(ctx context.Context, scope tenants.Scope, g Gateway, t Transaction, c gateway.Charge, settle Settle) (Outcome, error) {
	g, err := Routed(ctx, scope, g, t.DonationID, t.Currency)
	if err != nil {
		return Outcome{}, err
	}
	k := t.Key()
	c.IdempotencyKey, c.ExternalReference = k.Idempotency, k.Reference
	p, err := g.Charge(ctx, c)
	var unknown *gateway.UnknownOutcomeError
	if errors.As(err, &unknown) {
		found, ok, ferr := Find(ctx, g, k.Reference)
		if ferr != nil || !ok {
			return Outcome{}, fmt.Errorf("charge %s: outcome unknown and not found yet: %w", k.Reference, err)
		}
		p, err = found, nil
	}
	if err != nil {
		return Outcome{}, err
	}
	o := OutcomeFrom(g, p)
	o.Receipt, err = RecordAnd(ctx, scope, t, o, settle)
	return o, err
}

// Fee is a processor's fee on an amount, rounded half up as the commission is.
func Fee(amount int64, bps int32) int64 { return (amount*int64(bps) + 5000) / 10000 }

// Settle moves a first charge's pending donation on by the charge's outcome, in the statement that records the
// charge (a transaction of its own took the organisation's rollup rows again: issue 19). It answers the donation's
// status ("": it stays pending) and, for an active monthly donation, its next charge date.
type Settle func(o Outcome) (status string, nextChargeDate *time.Time)

// Record stores an outcome on its transaction: the row written before the charge (found by id, or
// by donation, period and attempt), else a new row for the attempt. An approval is stored with
// the post-trial commission its organisation owes, its receipt (numbered without gaps) and, made
// through a processor, the processor's fee and descriptor, in the same database transaction, so a
// charge is never approved without them; a refund or chargeback annuls the receipt. The CRM change
// and the webhook event are queued with it, and the dashboard rollup kept exact.
func Record(ctx context.Context, scope tenants.Scope, t Transaction, o Outcome) error {
	_, err := RecordAnd(ctx, scope, t, o, nil)
	return err
}

// RecordAnd is Record settling the first charge's donation too (settle nil: none).
//
// It is one statement (sharddb RecordCharge, migrations/shard/0590), sent alone: on Citus one round trip to the
// organisation's worker, which makes every write (issues 17 and 19). What the statement cannot know before writing
// is the id of a period's attempt that a row of another id already is (the form's first transaction is its first
// period's first attempt); it then writes nothing and answers that id, and the outcome is recorded again under it,
// with the webhook event of that transaction. It answers the receipt the record issued (Outcome.Receipt).
func RecordAnd(ctx context.Context, scope tenants.Scope, t Transaction, o Outcome, settle Settle) (json.RawMessage, error) {
	for range 2 {
		p, err := recordParams(scope.OrgID, t, o, settle)
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := scope.Alone(ctx, func(q *sharddb.Queries) (err error) {
			raw, err = q.RecordCharge(ctx, p)
			return err
		}); err != nil {
			return nil, fmt.Errorf("record transaction %s: %w", t.ID, err)
		}
		var r struct {
			ID      uuid.UUID       `json:"id"`
			Receipt json.RawMessage `json:"receipt"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("record transaction %s: %w", t.ID, err)
		}
		if r.ID == t.ID {
			if string(r.Receipt) == "null" {
				return nil, nil
			}
			return r.Receipt, nil
		}
		t.ID = r.ID
	}
	return nil, fmt.Errorf("record transaction %s: its period's attempt changed id while recorded", t.ID)
}

// recordParams are the arguments of t's record: its outcome, the webhook event it queues (charge.approved,
// charge.declined…; none for an undecided charge), the first charge's donation status, the processor's fee and a
// given-back charge's annulment time.
func recordParams(org uuid.UUID, t Transaction, o Outcome, settle Settle) (sharddb.RecordChargeParams, error) {
	at := o.At
	if at.IsZero() {
		at = time.Now()
	}
	p := sharddb.RecordChargeParams{OrganizationID: org, ID: t.ID, DonationID: t.DonationID, Attempt: int16(t.Attempt),
		AmountMinor: t.Amount, Currency: t.Currency, PaymentMethodID: t.PaymentMethodID, Status: string(o.Status),
		StatusDetail: o.Detail, GatewayPaymentID: o.PaymentID, ChargedAt: at}
	if t.Period != "" {
		p.Period = &t.Period
	}
	if typ := webhook.ChargeType(string(o.Status)); typ != "" {
		event := webhook.EventID(t.ID, typ)
		body, err := webhook.Encode(org, event, typ, webhook.Charge{TransactionID: t.ID, DonationID: t.DonationID,
			Period: t.Period, Attempt: t.Attempt, Amount: webhook.Amount{Minor: t.Amount, Currency: t.Currency},
			Status: string(o.Status), StatusDetail: o.Detail, GatewayPaymentID: o.PaymentID})
		if err != nil {
			return p, err
		}
		p.EventID, p.EventType, p.EventBody = &event, &typ, body
	}
	if settle != nil {
		if status, next := settle(o); status != "" {
			p.DonationStatus, p.NextChargeDate = &status, next
		}
	}
	if pr := o.Processor; pr != nil {
		fee := Fee(t.Amount, pr.FeeBps)
		p.ProcessorID, p.ProcessorFamily, p.FeeBps, p.FeeMinor, p.StatementDescriptor = &pr.ID, &pr.Family, &pr.FeeBps, &fee, &pr.Descriptor
	}
	if GivenBack(o.Status) {
		now := time.Now()
		p.AnnulAt = &now
	}
	return p, nil
}
