// Package donation creates donations from the public form (POST /d/{slug}): it re-validates the
// form, links the donor, saves the card at the gateway (token only), writes the donation and its
// first transaction, and charges it once, however often the form is submitted. Monthly collection
// afterwards belongs to workflows/collection.
package donation

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/subscription"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Gateway is what a donation needs from the organisation's payments provider.
type Gateway interface {
	gateway.Customers
	gateway.Charger
	gateway.BINLookup
}

// Gateways finds the gateway account an organisation collects with.
type Gateways interface {
	For(ctx context.Context, orgID uuid.UUID, currency string) (Gateway, string, error) // gateway, its name
}

// MercadoPagoGateways charges every organisation through the platform's MercadoPago-compatible
// account (the sandbox in dev and test) until organisations connect their own.
type MercadoPagoGateways struct{ Accounts *mercadopago.Accounts }

// For returns the client for the donation's currency.
func (g MercadoPagoGateways) For(_ context.Context, _ uuid.UUID, currency string) (Gateway, string, error) {
	c, err := g.Accounts.For(currency)
	return c, "mercadopago", err
}

// RecurringStarter starts the monthly collection of a donation. It must be idempotent on the
// donation id (a retried form submission calls it again).
type RecurringStarter interface {
	StartRecurring(ctx context.Context, orgID, donationID uuid.UUID) error
}

// Forms finds the published campaign behind a slug (campaign.Service).
type Forms interface {
	FormBySlug(ctx context.Context, slug string) (campaign.Form, error)
	LimitsFor(ctx context.Context, f campaign.Form) campaign.Limits
	MinimumFor(ctx context.Context, f campaign.Form, preset bool) int64
}

// Service creates donations.
type Service struct {
	forms   Forms
	tenants interface {
		ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	}
	gateways  Gateways
	recurring RecurringStarter // nil: no monthly collection is started (see RecurringStarter)
	guard     FirstChargeGuard // nil: nothing settles a first charge the request left pending
	secret    []byte
	mail      ThanksMailer // nil: no thank-you e-mails
	publicURL string       // where the thank-you page links point
	now       func() time.Time
	log       *slog.Logger
}

// Deps are the service's collaborators.
type Deps struct {
	Forms   Forms
	Tenants interface {
		ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	}
	Gateways  Gateways
	Recurring RecurringStarter
	Guard     FirstChargeGuard
	Secret    []byte // signs convert-to-monthly links and thank-you receipts
	Mail      ThanksMailer
	PublicURL string
	Now       func() time.Time
	Log       *slog.Logger
}

// NewService builds the service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{forms: d.Forms, tenants: d.Tenants, gateways: d.Gateways, recurring: d.Recurring, guard: d.Guard, secret: d.Secret,
		mail: d.Mail, publicURL: d.PublicURL, now: d.Now, log: d.Log}
}

// Outcome is how a submission ended.
type Outcome struct {
	DonationID  uuid.UUID
	Status      string // approved, planned, in_process, rejected, unknown
	Detail      string // the gateway's status detail when rejected
	Recurrency  int
	AmountMinor int64
	Currency    string
	CollectDay  *int
	FirstName   string
	Form        campaign.Form
	Replayed    bool
}

// firstTxID is the id of a donation's first transaction: derived from the donation id, so every
// retry of a submission writes and charges the same transaction.
func firstTxID(donationID uuid.UUID) uuid.UUID {
	return uuid.NewSHA1(donationID, []byte("first-transaction"))
}

// firstTx is a donation's first transaction as settling it needs it.
type firstTx struct {
	id                     uuid.UUID
	status, detail, period string
	// key and ref are the gateway idempotency key and external reference of its charge. A monthly
	// donation's first charge uses the collection workflow's key for its period, so the workflow
	// reads this payment back instead of charging the period again.
	key, ref string
}

func firstTransaction(ctx context.Context, scope tenants.Scope, d stored) (firstTx, error) {
	t := firstTx{id: firstTxID(d.id)}
	if err := scope.QueryRow(ctx, queries.Get("TransactionByID"), scope.OrgID, t.id).Scan(&t.status, &t.detail, &t.period); err != nil {
		return t, fmt.Errorf("first transaction: %w", err)
	}
	t.key, t.ref = chargeKey(t.id), t.id.String()
	if d.recurrence == 1 && t.period != "" {
		t.key = collection.ChargeKey(d.id.String(), t.period, 1)
		t.ref = t.key
	}
	return t, nil
}

// chargeKey is the gateway idempotency key of a transaction.
func chargeKey(txID uuid.UUID) string { return "aporta-tx-" + txID.String() }

// stored is the donation a key already made.
type stored struct {
	id         uuid.UUID
	status     string
	recurrence int
	amount     int64
	currency   string
	collectDay *int
	donorID    uuid.UUID
	firstName  string
	campaignID uuid.UUID
	pmID       *uuid.UUID
	idemKey    string
}

func findByKey(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, orgID uuid.UUID, key string) (stored, bool, error) {
	var s stored
	var day *int16
	err := q.QueryRow(ctx, queries.Get("DonationByKey"), orgID, key).Scan(&s.id, &s.status, &s.recurrence, &s.amount,
		&s.currency, &day, &s.donorID, &s.firstName, &s.campaignID, &s.pmID)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, false, nil
	}
	s.idemKey = key
	s.setCollectDay(day)
	return s, err == nil, err
}

// setCollectDay takes the column's value (NULL: the last day of the month).
func (s *stored) setCollectDay(day *int16) {
	if day != nil {
		d := int(*day)
		s.collectDay = &d
	}
}

// Create runs a checked submission. It is safe to call any number of times with the same
// idempotency key, also concurrently: one donation, one transaction, one charge.
func (s *Service) Create(ctx context.Context, f campaign.Form, sub Submission) (Outcome, error) {
	scope := f.Scope
	out := Outcome{Form: f, Recurrency: sub.Recurrency, AmountMinor: sub.Amount, Currency: f.Campaign.Currency, FirstName: sub.Donor.FirstName}

	existing, found, err := findByKey(ctx, scope, scope.OrgID, sub.IdempotencyKey)
	if err != nil {
		return out, err
	}
	if found && existing.campaignID != f.Campaign.ID {
		return out, ErrKeyReused
	}
	gw, gwName, err := s.gateways.For(ctx, scope.OrgID, f.Campaign.Currency)
	if err != nil {
		return out, err
	}
	if found && existing.status != "pending" {
		return s.replay(ctx, scope, gw, existing, out)
	}
	if !found && !f.Org.AcceptingDonations {
		return out, ErrNotAccepting
	}

	// Brand: the gateway must know the card's BIN ("Tarjeta no permitida" otherwise).
	pm, err := gw.PaymentMethod(ctx, sub.Card.BIN)
	if errors.Is(err, gateway.ErrNotFound) || (err == nil && sub.Card.MethodID != "" && pm.ID != sub.Card.MethodID) {
		return out, &CardNotAllowedError{Brand: sub.Card.MethodID}
	}
	if err != nil {
		return out, fmt.Errorf("bin lookup: %w", err)
	}

	cust, err := gw.EnsureCustomer(ctx, gateway.Customer{Email: sub.Donor.Email, FirstName: sub.Donor.FirstName,
		LastName: sub.Donor.LastName, IDType: sub.Card.HolderIDType, IDNumber: sub.Card.HolderIDNumber})
	if err != nil {
		return out, err
	}
	var card gateway.Card
	if found && existing.pmID != nil {
		card, err = s.savedCard(ctx, scope, *existing.pmID)
	} else {
		card, err = gw.SaveCard(ctx, cust.ID, sub.Card.Token)
	}
	if err != nil {
		// A concurrent twin of this submission may have used the (single-use) token first: answer
		// with its outcome rather than an error.
		if twin, ok, ferr := findByKey(ctx, scope, scope.OrgID, sub.IdempotencyKey); ferr == nil && ok {
			return s.awaitTwin(ctx, scope, gw, twin, out)
		}
		return out, err
	}

	now := s.now()
	loc, err := time.LoadLocation(f.Org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	today := now.In(loc)
	collectDay := CollectDay(today)
	var period *string
	if sub.Recurrency == 1 {
		p := today.Format("2006-01")
		period = &p
	}
	charge := sub.Recurrency == 0 || f.Campaign.ImmediateCharge
	firstStatus := "pending"
	if !charge {
		firstStatus = "planned"
	}

	var donationID uuid.UUID
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		donorID, err := linkDonor(ctx, tx, scope.OrgID, sub)
		if err != nil {
			return fmt.Errorf("donor: %w", err)
		}
		var pmID uuid.UUID
		if err := tx.QueryRow(ctx, queries.Get("UpsertPaymentMethod"), scope.OrgID, uuid.New(), donorID, gwName, cust.ID, card.ID,
			firstNonEmpty(card.PaymentMethodID, sub.Card.MethodID), sub.Card.BIN, sub.Card.LastFour, sub.Card.ExpMonth, sub.Card.ExpYear,
			sub.Card.HolderName, sub.Card.HolderIDType, sub.Card.HolderIDNumber, sub.Card.DonorIsCardholder).Scan(&pmID); err != nil {
			return fmt.Errorf("payment method: %w", err)
		}
		if err := reserveTickets(ctx, tx, f, sub); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, queries.Get("InsertDonation"), scope.OrgID, uuid.New(), f.Campaign.ID, donorID, sub.Amount,
			f.Campaign.Currency, sub.Recurrency, collectDayParam(collectDay), pmID, sub.IdempotencyKey, sub.Items,
			sub.PeriodicIncrease, sub.Instalments, sub.FormValues, sub.snapshot())
		if err != nil {
			return fmt.Errorf("donation: %w", err)
		}
		d, ok, err := findByKey(ctx, tx, scope.OrgID, sub.IdempotencyKey)
		if err != nil || !ok {
			return fmt.Errorf("donation by key: %v", err)
		}
		donationID = d.id
		_, err = tx.Exec(ctx, queries.Get("InsertFirstTransaction"), scope.OrgID, firstTxID(d.id), d.id, period, d.amount,
			d.currency, firstStatus, pmID)
		return err
	})
	if err != nil {
		return out, err
	}
	out.DonationID = donationID
	if charge && s.guard != nil {
		if err := s.guard.GuardFirstCharge(ctx, scope.OrgID, donationID); err != nil {
			return out, fmt.Errorf("first charge guard: %w", err) // not charged yet: the donor's retry resumes here
		}
	}
	// From here on, the stored donation is the truth (a concurrent twin may have written it).
	d, _, err := findByKey(ctx, scope, scope.OrgID, sub.IdempotencyKey)
	if err != nil {
		return out, err
	}
	return s.settle(ctx, scope, gw, d, out, cust.ID, card.ID, card.PaymentMethodID, sub.Donor.Email, sub.Instalments, today)
}

// linkDonor finds the donor with the submission's e-mail or creates one from the submission, with
// the answers of fields related to donor columns. It never writes an existing donor's record:
// anyone can type someone's e-mail into a public form, so what they say stays with their donation
// (Submission.snapshot) and only the manage area changes a donor.
func linkDonor(ctx context.Context, tx pgx.Tx, orgID uuid.UUID, sub Submission) (uuid.UUID, error) {
	var id uuid.UUID
	err := tx.QueryRow(ctx, queries.Get("InsertDonor"), orgID, uuid.New(), sub.Donor.Email, sub.Donor.FirstName,
		sub.Donor.LastName, sub.Donor.UIDType, sub.Donor.UIDNumber).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) { // the e-mail's donor exists (or a concurrent submission just made it)
		return id, tx.QueryRow(ctx, queries.Get("DonorByEmail"), orgID, sub.Donor.Email).Scan(&id)
	}
	if err != nil || len(sub.DonorFields) == 0 {
		return id, err
	}
	_, err = tx.Exec(ctx, queries.Get("SetDonorFields"), orgID, id, sub.DonorFields)
	return id, err
}

// reserveTickets refuses a tickets submission when an option with a quantity has fewer tickets
// left than the order asks for, counting every item of the order for that option together. The
// campaign's row lock serialises concurrent buyers until commit, and the options are read under it.
func reserveTickets(ctx context.Context, tx pgx.Tx, f campaign.Form, sub Submission) error {
	if f.Campaign.Type != "tickets" || f.Campaign.Event == nil {
		return nil
	}
	scope := f.Scope
	var ev *campaign.Event
	if err := tx.QueryRow(ctx, queries.Get("LockCampaign"), scope.OrgID, f.Campaign.ID).Scan(&ev); err != nil {
		return fmt.Errorf("lock campaign: %w", err)
	}
	if ev == nil {
		return nil
	}
	want := map[string]int{}
	for _, it := range sub.Items {
		want[it.ItemName] += it.Quantity
	}
	for _, t := range ev.Tickets {
		if t.Quantity == nil || want[t.Name] == 0 {
			continue
		}
		var sold int
		if err := tx.QueryRow(ctx, queries.Get("TicketsSold"), scope.OrgID, f.Campaign.ID, sub.IdempotencyKey, t.Name).Scan(&sold); err != nil {
			return fmt.Errorf("tickets sold: %w", err)
		}
		if sold+want[t.Name] > *t.Quantity {
			return &SoldOutError{Ticket: t.Name, Left: max(*t.Quantity-sold, 0)}
		}
	}
	return nil
}

func collectDayParam(d *int) any {
	if d == nil {
		return nil
	}
	return int16(*d)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// CollectDay is the day of the month a monthly donation made on t is collected: t's day, or nil
// (the last day of the month) when t is the month's last day.
func CollectDay(t time.Time) *int {
	if t.AddDate(0, 0, 1).Month() != t.Month() {
		return nil
	}
	d := t.Day()
	return &d
}

// nextCharge is the date of the next monthly charge after t for a collect day.
func nextCharge(t time.Time, collectDay *int) time.Time {
	first := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
	last := first.AddDate(0, 1, -1).Day()
	day := last
	if collectDay != nil && *collectDay < last {
		day = *collectDay
	}
	return time.Date(first.Year(), first.Month(), day, 0, 0, 0, 0, time.UTC)
}

func (s *Service) savedCard(ctx context.Context, scope tenants.Scope, pmID uuid.UUID) (gateway.Card, error) {
	var c gateway.Card
	err := scope.QueryRow(ctx, "SELECT customer_id, card_id, brand FROM payment_methods WHERE organization_id = $1 AND id = $2",
		scope.OrgID, pmID).Scan(&c.CustomerID, &c.ID, &c.PaymentMethodID)
	return c, err
}

// settle charges the first transaction when it must be charged and records the outcome.
func (s *Service) settle(ctx context.Context, scope tenants.Scope, gw Gateway, d stored, out Outcome,
	customerID, cardID, methodID, email string, instalments int, today time.Time) (Outcome, error) {
	out.DonationID, out.Recurrency, out.AmountMinor, out.Currency, out.CollectDay = d.id, d.recurrence, d.amount, d.currency, d.collectDay
	first, err := firstTransaction(ctx, scope, d)
	if err != nil {
		return out, err
	}
	txID, key, ref := first.id, first.key, first.ref
	if first.status == "planned" {
		out.Status = "planned"
		return out, s.activate(ctx, scope, d, "active", &today)
	}
	p, err := gw.Charge(ctx, gateway.Charge{
		IdempotencyKey: key, ExternalReference: ref,
		Amount:      money.Amount{Minor: d.amount, Currency: d.currency},
		Description: out.Form.Campaign.Title, Installments: instalments,
		CustomerID: customerID, Email: email, CardID: cardID, PaymentMethodID: methodID,
		Metadata: map[string]string{"organization_id": scope.OrgID.String(), "donation_id": d.id.String()},
	})
	var unknown *gateway.UnknownOutcomeError
	if errors.As(err, &unknown) {
		// Maybe charged: read it back by reference; never charge with another key.
		if ps, ferr := gw.FindPayments(ctx, ref); ferr == nil && len(ps) > 0 {
			p, err = ps[0], nil
		}
	}
	if err != nil {
		if errors.As(err, &unknown) {
			s.log.WarnContext(ctx, "donation: charge outcome unknown", "donation_id", d.id, "error", err)
			out.Status = "unknown"
			return out, nil
		}
		return out, err
	}
	return s.record(ctx, scope, d, out, txID, p, today)
}

func (s *Service) record(ctx context.Context, scope tenants.Scope, d stored, out Outcome, txID uuid.UUID, p gateway.Payment, today time.Time) (Outcome, error) {
	// An approval is stored with the post-trial commission it owes, in one database transaction.
	if err := scope.Tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, queries.Get("SettleTransaction"), scope.OrgID, txID, string(p.Status), p.ID, p.StatusDetail); err != nil {
			return err
		}
		if p.Status != gateway.StatusApproved {
			return nil
		}
		return subscription.RecordCommission(ctx, tx, scope.OrgID, txID)
	}); err != nil {
		return out, err
	}
	out.Detail = p.StatusDetail
	switch p.Status {
	case gateway.StatusApproved:
		out.Status = "approved"
		var next *time.Time
		if d.recurrence == 1 {
			n := nextCharge(today, d.collectDay)
			next = &n
		}
		return out, s.activate(ctx, scope, d, "active", next)
	case gateway.StatusRejected, gateway.StatusCancelled:
		out.Status = "rejected"
		return out, s.activate(ctx, scope, d, "rejected", nil)
	default: // in_process, pending: the gateway decides later; the donation stays pending.
		out.Status = "in_process"
		return out, nil
	}
}

// activate moves a pending donation to its settled status and, for an active monthly donation,
// starts its collection.
func (s *Service) activate(ctx context.Context, scope tenants.Scope, d stored, status string, next *time.Time) error {
	if err := scope.Exec(ctx, queries.Get("SettleDonation"), scope.OrgID, d.id, status, next); err != nil {
		return err
	}
	if status == "active" && d.recurrence == 1 && s.recurring != nil {
		if err := s.recurring.StartRecurring(ctx, scope.OrgID, d.id); err != nil {
			// The donation is stored and charged; the collection start is retried by the next
			// submission with the same key and must be reconciled by collection otherwise.
			s.log.ErrorContext(ctx, "donation: start recurring collection", "donation_id", d.id, "error", err)
		}
	}
	return nil
}

// replay answers a settled submission again from the stored rows.
func (s *Service) replay(ctx context.Context, scope tenants.Scope, gw Gateway, d stored, out Outcome) (Outcome, error) {
	out.Replayed = true
	out.DonationID, out.Recurrency, out.AmountMinor, out.Currency, out.CollectDay, out.FirstName =
		d.id, d.recurrence, d.amount, d.currency, d.collectDay, d.firstName
	first, err := firstTransaction(ctx, scope, d)
	if err != nil {
		return out, err
	}
	out.Detail = first.detail
	out.Status = publicStatus(d.status, first.status)
	if d.status == "active" && d.recurrence == 1 && s.recurring != nil {
		if err := s.recurring.StartRecurring(ctx, scope.OrgID, d.id); err != nil {
			s.log.ErrorContext(ctx, "donation: start recurring collection", "donation_id", d.id, "error", err)
		}
	}
	return out, nil
}

// publicStatus is a submission's outcome as the form reports it, from the donation's status and
// its first transaction's.
func publicStatus(donationStatus, txStatus string) string {
	switch {
	case donationStatus == "rejected":
		return "rejected"
	case txStatus == "pending" || txStatus == "in_process":
		return "in_process"
	default: // planned, approved, or the status a later change gave the transaction
		return txStatus
	}
}

// awaitTwin waits briefly for a concurrent submission with the same key to settle, then replays it.
func (s *Service) awaitTwin(ctx context.Context, scope tenants.Scope, gw Gateway, d stored, out Outcome) (Outcome, error) {
	for i := 0; d.status == "pending" && i < 40; i++ {
		select {
		case <-ctx.Done():
			return out, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		var ok bool
		var err error
		if d, ok, err = findByKey(ctx, scope, scope.OrgID, d.idemKey); err != nil || !ok {
			return out, fmt.Errorf("await twin: %v", err)
		}
	}
	if d.status == "pending" {
		out.DonationID, out.Status = d.id, "unknown" // the donor's retry (same key) resumes it
		return out, nil
	}
	return s.replay(ctx, scope, gw, d, out)
}

// ErrNotAccepting refuses new donations for an organisation whose trial ended without a plan.
var ErrNotAccepting = errors.New("donation: organization is not accepting new donations")

// ErrKeyReused is an idempotency key already used for another campaign's form.
var ErrKeyReused = errors.New("donation: idempotency key used for another campaign")

// CardNotAllowedError is a card brand the campaign's gateway does not take.
type CardNotAllowedError struct{ Brand string }

func (e *CardNotAllowedError) Error() string { return "donation: card not allowed: " + e.Brand }

// SoldOutError is a ticket option without enough tickets left.
type SoldOutError struct {
	Ticket string
	Left   int
}

func (e *SoldOutError) Error() string {
	return fmt.Sprintf("donation: ticket %q has %d left", e.Ticket, e.Left)
}
