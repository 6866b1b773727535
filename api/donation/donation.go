// Package donation creates donations from the public form (POST /d/{slug}): it re-validates the
// form, links the donor, saves the card at the gateway (token only), writes the donation and its
// first transaction, and charges it once (workflows/firstcharge), however often the form is
// submitted. Monthly collection afterwards belongs to workflows/collection.
package donation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/newdonation"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/thanks"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/firstcharge"
)

// row is the submission's part of its donation row (the caller adds ids, currency, collect day and
// card).
func (s Submission) row() (sharddb.InsertFormDonationParams, error) {
	items, err := json.Marshal(s.Items)
	if err != nil {
		return sharddb.InsertFormDonationParams{}, err
	}
	values, err := json.Marshal(s.FormValues)
	if err != nil {
		return sharddb.InsertFormDonationParams{}, err
	}
	snapshot, err := json.Marshal(s.snapshot())
	if err != nil {
		return sharddb.InsertFormDonationParams{}, err
	}
	return sharddb.InsertFormDonationParams{AmountMinor: s.Amount, Recurrence: int16(s.Recurrency), IdempotencyKey: &s.IdempotencyKey,
		Items: items, UpgradeOptIn: s.PeriodicIncrease, Instalments: int16(s.Instalments), FormValues: values,
		DonorSnapshot: snapshot}, nil
}

// Gateway is what a donation needs from the organisation's payments provider.
type Gateway interface {
	gateway.Customers
	gateway.Charger
	gateway.BINLookup
}

// Gateways finds the gateway account an organisation collects a campaign's donations with (uuid.Nil:
// no campaign in particular).
type Gateways interface {
	For(ctx context.Context, orgID, campaignID uuid.UUID, currency string) (Gateway, string, error) // gateway, its name
}

// ConnectedGateways charges each organisation through the account its forms take donations with
// (MercadoPago or CentralPos, connections.Store.ActiveConnection), or the integrated-payments
// processor a rule routes the campaign to; an organisation without either is not accepting donations.
type ConnectedGateways struct {
	Clients    *connections.Clients
	Processors *processing.Processors // nil: no processor routes
}

// For returns the organisation's client for the donation's currency and its gateway's name.
func (g ConnectedGateways) For(ctx context.Context, orgID, campaignID uuid.UUID, currency string) (Gateway, string, error) {
	if g.Processors != nil && campaignID != uuid.Nil {
		scope, err := g.Clients.Tenants.ForOrganization(ctx, orgID)
		if err != nil {
			return nil, "", err
		}
		a, err := g.Processors.CampaignAccount(ctx, scope, campaignID, currency)
		if err != nil {
			return nil, "", err
		}
		if a != nil {
			return a, charge.ProcessorGateway, nil
		}
	}
	c, conn, err := g.Clients.ForOrganization(ctx, orgID, "", currency)
	if errors.Is(err, connections.ErrNotConnected) {
		return nil, "", fmt.Errorf("%w: %w", ErrNotAccepting, err)
	}
	if err != nil {
		return nil, "", err
	}
	return c, conn.Gateway, nil
}

// RetryCards saves donors' cards at the global processor that retries a campaign's declined
// charges, and routes each charge (processing.Processors).
type RetryCards interface {
	charge.Router
	SaveRetryCard(ctx context.Context, scope tenants.Scope, campaignID uuid.UUID, currency string, payer gateway.Customer,
		vaultToken, bin, lastFour string) (processing.RetryCard, bool, error)
}

// Forms finds the published campaign behind a slug (campaign.Service).
type Forms interface {
	FormBySlug(ctx context.Context, slug string) (campaign.Form, error)
	LimitsFor(ctx context.Context, f campaign.Form) campaign.Limits
}

// Service creates donations.
type Service struct {
	forms   Forms
	tenants interface {
		ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	}
	gateways Gateways
	retries  RetryCards // nil: no charge is retried through a processor
	first    firstcharge.Settler
	secret   []byte
	receipts thanks.Receipts
	thanks   thanks.Mailer
	// receiptMail e-mails an approved first charge's receipt; receiptLinks checks its download links.
	receiptMail  receipt.Mailer
	receiptLinks receipt.Links
	now          func() time.Time
	log          *slog.Logger

	// bankDebits offers processors' off-site bank debits (nil: none); publicURL is where their
	// notifications and donors' returns from the bank reach us.
	bankDebits BankDebits
	publicURL  string
}

// Deps are the service's collaborators.
type Deps struct {
	Forms   Forms
	Tenants interface {
		ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	}
	Gateways  Gateways
	Retries   RetryCards                   // nil: no charge is retried through a processor
	Recurring firstcharge.RecurringStarter // nil: no monthly collection is started
	Secret    []byte                       // signs convert-to-monthly links and thank-you receipts
	Mail      thanks.Outbox                // nil: no thank-you e-mails
	PublicURL string                       // where the thank-you page links point
	Now       func() time.Time
	Log       *slog.Logger

	BankDebits BankDebits // nil: no off-site bank debit is offered
}

// NewService builds the service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	receipts := thanks.Receipts{Secret: d.Secret}
	receiptLinks := receipt.Links{Secret: d.Secret, Now: d.Now}
	// The first charge's receipt is e-mailed by followUp, not by the Settler.
	return &Service{forms: d.Forms, tenants: d.Tenants, gateways: d.Gateways, retries: d.Retries, secret: d.Secret,
		bankDebits: d.BankDebits, publicURL: d.PublicURL,
		first:        firstcharge.Settler{Recurring: d.Recurring, Log: d.Log},
		receiptMail:  receipt.Mailer{Outbox: d.Mail, Links: receiptLinks, PublicURL: d.PublicURL},
		receiptLinks: receiptLinks,
		receipts:     receipts, thanks: thanks.Mailer{Outbox: d.Mail, Receipts: receipts, PublicURL: d.PublicURL, Now: d.Now, Log: d.Log},
		now: d.Now, log: d.Log}
}

// Outcome is how a submission ended.
type Outcome struct {
	DonationID  uuid.UUID
	Status      string // approved, planned, in_process, rejected, unknown
	Detail      string // the gateway's status detail when rejected
	Recurrency  int
	AmountMinor int64
	Currency    string
	CollectDay  collectday.Day
	FirstName   string
	Form        campaign.Form
	Replayed    bool
	// convertSecret is the convert-to-monthly secret stored with the donation this call wrote (nil: none).
	convertSecret []byte
	// receipt is the receipt this call's charge issued, for followUp to e-mail (nil: read it, or none).
	receipt json.RawMessage
}

// stored is the donation a key already made.
type stored struct {
	id         uuid.UUID
	status     string
	recurrence int
	amount     int64
	currency   string
	collectDay collectday.Day
	donorID    uuid.UUID
	firstName  string
	campaignID uuid.UUID
	pmID       *uuid.UUID
	idemKey    string
}

func findByKey(ctx context.Context, q *sharddb.Queries, orgID uuid.UUID, key string) (stored, bool, error) {
	r, err := q.FormDonationByKey(ctx, sharddb.FormDonationByKeyParams{OrganizationID: orgID, IdempotencyKey: &key})
	if errors.Is(err, dberr.ErrNotFound) {
		return stored{}, false, nil
	}
	if err != nil {
		return stored{}, false, err
	}
	return storedOf(r, key), true, nil
}

func storedOf(r sharddb.FormDonationByKeyRow, key string) stored {
	return stored{id: r.ID, status: r.Status, recurrence: int(r.Recurrence), amount: r.AmountMinor, currency: r.Currency,
		collectDay: collectday.FromColumn(r.CollectDay), donorID: r.DonorID, firstName: r.FirstName, campaignID: r.CampaignID,
		pmID: r.PaymentMethodID, idemKey: key}
}

// forFirstCharge is the donation as settling its first charge needs it.
func (s stored) forFirstCharge(orgID uuid.UUID) firstcharge.Donation {
	return firstcharge.Donation{OrgID: orgID, ID: s.id, Recurrence: s.recurrence, Amount: s.amount, Currency: s.currency,
		CollectDay: s.collectDay}
}

// Create runs a checked submission. It is safe to call any number of times with the same
// idempotency key, also concurrently: one donation, one transaction, one charge.
func (s *Service) Create(ctx context.Context, f campaign.Form, sub Submission) (Outcome, error) {
	scope := f.Scope
	out := Outcome{Form: f, Recurrency: sub.Recurrency, AmountMinor: sub.Amount, Currency: f.Campaign.Currency, FirstName: sub.Donor.FirstName}

	existing, found, err := findByKey(ctx, scope.Store(), scope.OrgID, sub.IdempotencyKey)
	if err != nil {
		return out, err
	}
	if found && existing.campaignID != f.Campaign.ID {
		return out, ErrKeyReused
	}
	gw, gwName, err := s.gateways.For(ctx, scope.OrgID, f.Campaign.ID, f.Campaign.Currency)
	if err != nil {
		return out, err
	}
	if found && existing.status != "pending" {
		return s.replay(ctx, scope, existing, out)
	}
	if !found && !f.Org.AcceptingDonations {
		return out, ErrNotAccepting
	}

	cust, err := cardCustomer(ctx, gw, sub.Card, sub.Donor)
	if err != nil {
		return out, err
	}
	var card gateway.Card
	var retried *processing.RetryCard
	if found && existing.pmID != nil {
		card, err = s.savedCard(ctx, scope, *existing.pmID)
	} else if card, err = gw.SaveCard(ctx, cust.ID, sub.Card.Token); err == nil {
		retried = retryCard(ctx, s.retries, s.log, scope, f.Campaign.ID, f.Campaign.Currency, gwName, sub.Donor.Email, sub.Card)
	}
	if err != nil {
		// A concurrent twin of this submission may have used the (single-use) token first: answer
		// with its outcome rather than an error.
		if twin, ok, ferr := findByKey(ctx, scope.Store(), scope.OrgID, sub.IdempotencyKey); ferr == nil && ok {
			return s.awaitTwin(ctx, scope, twin, out)
		}
		return out, err
	}

	now := s.now()
	loc, err := time.LoadLocation(f.Org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	today := now.In(loc)
	collectDay := collectday.Of(today)
	var period *string
	if sub.Recurrency == 1 {
		p := collectday.PeriodOf(today).String()
		period = &p
	}
	chargeNow := sub.Recurrency == 0 || f.Campaign.ImmediateCharge
	firstStatus := "pending"
	if !chargeNow {
		firstStatus = "planned"
	}

	c := sub.Card
	var written newdonation.Written
	fresh := newRow{id: uuid.New()}
	if sub.Recurrency == 0 {
		fresh.convertSecret, fresh.convertUntil = convertSecret(), now.Add(ConvertTTL)
	}
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		w, err := sub.write(ctx, q, f, fresh, &newdonation.Card{Gateway: gwName, CustomerID: cust.ID, CardID: card.ID,
			Brand: firstNonEmpty(card.PaymentMethodID, c.MethodID), Bin: c.BIN, LastFour: c.LastFour, ExpiryMonth: int16(c.ExpMonth),
			ExpiryYear: int16(c.ExpYear), HolderName: c.HolderName, HolderIDType: &c.HolderIDType, HolderIDNumber: &c.HolderIDNumber,
			DonorIsCardholder: c.DonorIsCardholder}, period, collectDay, firstStatus)
		written = w
		if err != nil || w.PaymentMethodID == nil {
			return err
		}
		return saveProcessorCard(ctx, q, scope.OrgID, *w.PaymentMethodID, retried)
	})
	if err != nil {
		return out, err
	}
	out.DonationID = written.ID
	processing.KnowCampaign(ctx, scope.OrgID, written.ID, written.CampaignID)
	// The donation is stored pending before its charge: if this request never records the outcome,
	// the first-charge sweep starts its guard, which reads the charge back (firstcharge.Sweep).
	// From here on, the stored donation is the truth: Write answers it as stored, whoever wrote it (a
	// concurrent twin may have), so it is not read again.
	d := storedOf(written, sub.IdempotencyKey)
	var first *firstcharge.First // as this request wrote it (nil: a concurrent twin wrote the donation; read it)
	if written.ID == fresh.id {
		out.convertSecret = fresh.convertSecret
		f := firstcharge.Written(d.forFirstCharge(scope.OrgID), derefOr(period), firstStatus, written.PaymentMethodID)
		first = &f
	}
	return s.settle(ctx, scope, gw, d, first, out, cust.ID, card.ID, card.PaymentMethodID, sub.Donor.Email, sub.Instalments, today)
}

func derefOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// newRow is what a submission's new donation row gets besides the submission: its id and, for a one-time
// donation, its convert-to-monthly secret (nil: none) and that secret's expiry.
type newRow struct {
	id            uuid.UUID
	convertSecret []byte
	convertUntil  time.Time
}

// write stores the submission's donation with q as fresh, inside the caller's transaction (newdonation.Write;
// a concurrent twin's may be there first), its tickets reserved first; pm is its payment method (nil: none,
// an off-site bank debit).
func (sub Submission) write(ctx context.Context, q *sharddb.Queries, f campaign.Form, fresh newRow, pm *newdonation.Card,
	period *string, day collectday.Day, firstStatus string) (newdonation.Written, error) {
	if err := reserveTickets(ctx, q, f, sub); err != nil {
		return newdonation.Written{}, err
	}
	row, err := sub.row()
	if err != nil {
		return newdonation.Written{}, err
	}
	row.ID, row.CampaignID, row.Currency = fresh.id, f.Campaign.ID, f.Campaign.Currency
	if fresh.convertSecret != nil {
		row.ConvertSecret, row.ConvertExpiresAt = fresh.convertSecret, &fresh.convertUntil
	}
	dn := sub.Donor
	return newdonation.Write(ctx, q, newdonation.New{OrgID: f.Scope.OrgID,
		Donor: newdonation.Donor{Email: dn.Email, FirstName: dn.FirstName, LastName: dn.LastName, UIDType: dn.UIDType,
			UIDNumber: dn.UIDNumber, Fields: sub.DonorFields},
		PaymentMethod: pm, Donation: row, Period: period, CollectDay: day, FirstStatus: firstStatus})
}

// retryCard saves the card the browser also tokenised at the card vault (c.VaultToken) at the
// processor that retries the campaign's declined charges: on the public form and on a later card
// change alike. Without it (no vault token, no retry rule, a card routed to a processor already, or
// the processor refusing it) the card still serves, its declines final: a retry is a second chance,
// never a reason to refuse a donation or a new card.
func retryCard(ctx context.Context, retries RetryCards, log *slog.Logger, scope tenants.Scope, campaignID uuid.UUID,
	currency, gwName, email string, c CardData) *processing.RetryCard {
	if retries == nil || c.VaultToken == "" || gwName == charge.ProcessorGateway {
		return nil
	}
	rc, ok, err := retries.SaveRetryCard(ctx, scope, campaignID, currency,
		gateway.Customer{Email: email, IDType: c.HolderIDType, IDNumber: c.HolderIDNumber}, c.VaultToken, c.BIN, c.LastFour)
	if err != nil {
		log.WarnContext(ctx, "donation: card not saved at the retry processor", "organization_id", scope.OrgID,
			"campaign_id", campaignID, "error", err)
	}
	if !ok || err != nil {
		return nil
	}
	return &rc
}

// saveProcessorCard keeps the payment method's card at the retry processor (nil: none), replacing
// the one it had there, in the transaction that stores the payment method.
func saveProcessorCard(ctx context.Context, q *sharddb.Queries, orgID, pmID uuid.UUID, rc *processing.RetryCard) error {
	if rc == nil {
		return nil
	}
	return q.SaveProcessorCard(ctx, sharddb.SaveProcessorCardParams{OrganizationID: orgID, PaymentMethodID: pmID,
		ProcessorID: rc.ProcessorID, CardID: rc.CardID, CustomerID: rc.CustomerID})
}

// reserveTickets refuses a tickets submission when an option with a quantity has fewer tickets
// left than the order asks for, counting every item of the order for that option together. The
// campaign's row lock serialises concurrent buyers until commit, and the options are read under it.
func reserveTickets(ctx context.Context, q *sharddb.Queries, f campaign.Form, sub Submission) error {
	if f.Campaign.Type != "tickets" || f.Campaign.Event == nil {
		return nil
	}
	scope := f.Scope
	raw, err := q.LockFormCampaign(ctx, sharddb.LockFormCampaignParams{OrganizationID: scope.OrgID, ID: f.Campaign.ID})
	if err != nil {
		return fmt.Errorf("lock campaign: %w", err)
	}
	var ev *campaign.Event
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &ev); err != nil {
			return fmt.Errorf("campaign event: %w", err)
		}
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
		sold, err := q.FormTicketsSold(ctx, sharddb.FormTicketsSoldParams{OrganizationID: scope.OrgID, CampaignID: f.Campaign.ID,
			IdempotencyKey: sub.IdempotencyKey, ItemName: t.Name})
		if err != nil {
			return fmt.Errorf("tickets sold: %w", err)
		}
		if int(sold)+want[t.Name] > *t.Quantity {
			return &SoldOutError{Ticket: t.Name, Left: max(*t.Quantity-int(sold), 0)}
		}
	}
	return nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func (s *Service) savedCard(ctx context.Context, scope tenants.Scope, pmID uuid.UUID) (gateway.Card, error) {
	r, err := scope.Store().FormSavedCard(ctx, sharddb.FormSavedCardParams{OrganizationID: scope.OrgID, ID: pmID})
	return gateway.Card{CustomerID: r.CustomerID, ID: r.CardID, PaymentMethodID: r.Brand}, err
}

// settle charges the first transaction when it must be charged and records the outcome; first is the
// transaction as this request wrote it (nil: read it).
func (s *Service) settle(ctx context.Context, scope tenants.Scope, gw charge.Gateway, d stored, first *firstcharge.First, out Outcome,
	customerID, cardID, methodID, email string, instalments int, today time.Time) (Outcome, error) {
	out.DonationID, out.Recurrency, out.AmountMinor, out.Currency, out.CollectDay = d.id, d.recurrence, d.amount, d.currency, d.collectDay
	charged, err := s.first.Charge(ctx, scope, charge.WithRouter(gw, s.retries), d.forFirstCharge(scope.OrgID), first, gateway.Charge{
		Description: out.Form.Campaign.Title, Installments: instalments,
		CustomerID: customerID, Email: email, CardID: cardID, PaymentMethodID: methodID,
		Metadata: map[string]string{"organization_id": scope.OrgID.String(), "donation_id": d.id.String()},
	}, today)
	out.Status, out.Detail, out.receipt = charged.Status, charged.Detail, charged.Receipt
	return out, err
}

// replay answers a settled submission again from the stored rows.
func (s *Service) replay(ctx context.Context, scope tenants.Scope, d stored, out Outcome) (Outcome, error) {
	out.Replayed = true
	out.DonationID, out.Recurrency, out.AmountMinor, out.Currency, out.CollectDay, out.FirstName =
		d.id, d.recurrence, d.amount, d.currency, d.collectDay, d.firstName
	first, err := firstcharge.FirstOf(ctx, scope, d.forFirstCharge(scope.OrgID))
	if err != nil {
		return out, err
	}
	out.Detail = first.Detail
	out.Status = publicStatus(d.status, first.Status)
	if d.status == "active" && d.recurrence == 1 {
		s.first.StartCollection(ctx, scope.OrgID, d.id)
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
func (s *Service) awaitTwin(ctx context.Context, scope tenants.Scope, d stored, out Outcome) (Outcome, error) {
	for i := 0; d.status == "pending" && i < 40; i++ {
		select {
		case <-ctx.Done():
			return out, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		var ok bool
		var err error
		if d, ok, err = findByKey(ctx, scope.Store(), scope.OrgID, d.idemKey); err != nil || !ok {
			return out, fmt.Errorf("await twin: %v", err)
		}
	}
	if d.status == "pending" {
		out.DonationID, out.Status = d.id, "unknown" // the donor's retry (same key) resumes it
		return out, nil
	}
	return s.replay(ctx, scope, d, out)
}

// ErrNotAccepting refuses new donations for an organisation whose trial ended without a plan.
var ErrNotAccepting = errors.New("donation: organization is not accepting new donations")

// ErrKeyReused is an idempotency key already used for another campaign's form.
var ErrKeyReused = errors.New("donation: idempotency key used for another campaign")

// CardNotAllowedError is a card brand the campaign's gateway does not take.
type CardNotAllowedError struct{ Brand string }

func (e *CardNotAllowedError) Error() string { return "donation: card not allowed: " + e.Brand }

// checkBrand answers *CardNotAllowedError ("Tarjeta no permitida") unless the organisation's gateway
// account takes the card of this BIN under the brand the form named (methodID; "" takes any). The
// account's own payment methods decide when the gateway publishes their BIN patterns; otherwise,
// or while they cannot be read, its BIN lookup does.
func checkBrand(ctx context.Context, gw Gateway, bin, methodID string) error {
	if cm, ok := gw.(gateway.CardMethods); ok {
		if methods, err := cm.PaymentMethods(ctx); err == nil {
			if rules := card.NewRules(methods); rules.Patterned() {
				r, found := rules.Detect(bin)
				if !found || (methodID != "" && string(r.Brand) != methodID) {
					return &CardNotAllowedError{Brand: methodID}
				}
				return nil
			}
		}
	}
	pm, err := gw.PaymentMethod(ctx, bin)
	if errors.Is(err, gateway.ErrNotFound) || (err == nil && methodID != "" && pm.ID != methodID) {
		return &CardNotAllowedError{Brand: methodID}
	}
	if err != nil {
		return fmt.Errorf("bin lookup: %w", err)
	}
	return nil
}

// SoldOutError is a ticket option without enough tickets left.
type SoldOutError struct {
	Ticket string
	Left   int
}

func (e *SoldOutError) Error() string {
	return fmt.Sprintf("donation: ticket %q has %d left", e.Ticket, e.Left)
}
