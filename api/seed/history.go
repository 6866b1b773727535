package seed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/firstcharge"
)

// HistoryDeps are what writing the demo's year touches.
type HistoryDeps struct {
	Tenants   *tenants.Tenants
	Campaigns *campaign.Service
	// Cards saves a real card at the organisation's gateway for every donation collection keeps
	// charging after the seed; the others keep made-up card ids, as no one charges them again.
	Cards Cards
	// Temporal starts the collection of the active and paused monthly donations (nil: none is started).
	Temporal client.Client
	// Actor signs the pauses and discards an administrator made.
	Actor uuid.UUID
	// Workers is how many donations are written at a time (4 when 0).
	Workers int
	// Log gets each step's duration (nil: nowhere).
	Log io.Writer
}

// Cards saves a donor's card at the organisation's gateway account (SandboxCards).
type Cards interface {
	Save(ctx context.Context, orgID uuid.UUID, p Person) (gateway.Card, error)
}

// Person is a seeded donor as the gateway's customer needs them.
type Person struct{ FirstName, LastName, Email, UIDType, UIDNumber, Holder string }

// Counts are what the history holds.
type Counts struct {
	Donors, Donations, Transactions, Approved, Leads, Workflows int
	ByStatus                                                    map[string]int
	RaisedMinor                                                 int64 // approved transactions' amounts
	Written                                                     bool  // false: the history was there already
	Took                                                        time.Duration
}

// History writes the demo organisation's year of giving (campaigns, donors, donations, charges,
// retries, pauses, discards, increases, leads, visits) through the same stores, charge recording,
// first-charge settling and collection bookkeeping real traffic goes through, so the dashboard
// rollup and the donation pages agree with the rows; then it starts the collection workflows of the
// donations still collected. Their workflows charge only from the first period after the year
// (collectday.First), so no seeded period is charged again. It does nothing when the organisation
// already holds the planned donations.
func History(ctx context.Context, d HistoryDeps) (Counts, error) {
	start := time.Now()
	scope, err := d.Tenants.ForOrganization(ctx, DemoOrgID)
	if err != nil {
		return Counts{}, err
	}
	org, err := d.Campaigns.Organization(ctx, scope)
	if err != nil {
		return Counts{}, err
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		return Counts{}, err
	}
	anchor, err := scope.Store().SeedAnchor(ctx, scope.OrgID)
	if err != nil {
		return Counts{}, err
	}
	stories, leads := planYear(anchor, loc, d.Actor.String())
	counts := count(stories, leads)
	have, err := scope.Store().SeedDonationCount(ctx, scope.OrgID)
	if err != nil {
		return Counts{}, err
	}
	if have >= int64(counts.Donations) {
		counts.Took = time.Since(start)
		return counts, nil
	}
	counts.Written = true
	step := time.Now()
	logStep := func(name string) {
		if d.Log != nil {
			fmt.Fprintf(d.Log, "seed history: %s in %s\n", name, time.Since(step).Round(time.Millisecond))
		}
		step = time.Now()
	}
	if err := ensureCampaigns(ctx, d.Campaigns, scope, anchor); err != nil {
		return counts, err
	}
	logStep("campaigns")
	if err := writeStories(ctx, d, scope, stories); err != nil {
		return counts, err
	}
	logStep("donations")
	if err := writeLeads(ctx, scope, leads, anchor, loc); err != nil {
		return counts, err
	}
	if err := writeVisits(ctx, scope, stories, anchor, loc); err != nil {
		return counts, err
	}
	logStep("leads and visits")
	if d.Temporal != nil {
		if counts.Workflows, err = startCollection(ctx, d.Temporal, stories, d.workers()); err != nil {
			return counts, err
		}
		logStep("collection workflows")
	}
	counts.Took = time.Since(start)
	return counts, nil
}

func (d HistoryDeps) workers() int {
	if d.Workers > 0 {
		return d.Workers
	}
	return 8
}

// count is what the plan writes.
func count(stories []story, leads []person) Counts {
	c := Counts{ByStatus: map[string]int{}, Leads: len(leads)}
	donors := map[int]bool{}
	for _, s := range stories {
		donors[s.donor.n] = true
		c.Donations++
		c.Transactions += len(s.attempts)
		if s.recurrence == 1 && len(s.attempts) == 0 {
			c.Transactions++ // the first period's planned transaction, charged after the seed
		}
		for _, a := range s.attempts {
			if a.status == "approved" {
				c.Approved++
				c.RaisedMinor += a.amount
			}
		}
		c.ByStatus[s.status()]++
		if s.collected() {
			c.Workflows++
		}
	}
	c.Donors = len(donors)
	return c
}

// status is the donation's status after its year.
func (s story) status() string {
	switch {
	case s.recurrence == 1:
		return s.final.Status
	case s.rejected:
		return "rejected"
	}
	return "active"
}

// writeStories writes the stories, a donor's stories in order on one worker.
func writeStories(ctx context.Context, d HistoryDeps, scope tenants.Scope, stories []story) error {
	workers := d.workers()
	queues := make([][]story, workers)
	for _, s := range stories {
		w := s.donor.n % workers
		queues[w] = append(queues[w], s)
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for _, s := range queues[w] {
				if err := writeStory(ctx, d, scope, s); err != nil {
					errs[w] = fmt.Errorf("donation %d: %w", s.n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// writeStory writes one donation as the form did (donor, card, donation, first transaction, in one
// database transaction, then dated at its submission), settles its first charge as the form or
// collection did, records every later attempt, the version history, and the state collection
// holds at the end of the year.
func writeStory(ctx context.Context, d HistoryDeps, scope tenants.Scope, s story) error {
	card := gateway.Card{CustomerID: fmt.Sprintf("demo-%d", s.donor.n), ID: fmt.Sprintf("demo-card-%d", s.donor.n),
		PaymentMethodID: "visa", FirstSix: "450995", LastFour: fmt.Sprintf("%04d", (s.donor.n*7919)%10000),
		ExpirationMonth: 1 + s.donor.n%12, ExpirationYear: s.created.Year() + 2 + s.donor.n%4}
	if s.collected() && d.Cards != nil {
		var err error
		p := s.donor
		if card, err = d.Cards.Save(ctx, scope.OrgID, Person{FirstName: p.first, LastName: p.last, Email: p.email,
			UIDType: p.uidType, UIDNumber: p.uidNumber, Holder: p.holderWord + " " + p.first + " " + p.last}); err != nil {
			return fmt.Errorf("card: %w", err)
		}
	}
	id := s.id()
	var pmID uuid.UUID
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		donorID, err := q.LinkFormDonor(ctx, sharddb.LinkFormDonorParams{OrganizationID: scope.OrgID, ID: s.donor.id(),
			Email: s.donor.email, FirstName: s.donor.first, LastName: s.donor.last, UidType: s.donor.uidType, UidNumber: s.donor.uidNumber})
		if err != nil {
			return fmt.Errorf("donor: %w", err)
		}
		idType, idNumber := s.donor.uidType, s.donor.uidNumber
		if pmID, err = q.UpsertPaymentMethod(ctx, sharddb.UpsertPaymentMethodParams{OrganizationID: scope.OrgID,
			ID: uuid.NewSHA1(id, []byte("payment-method")), DonorID: donorID, Gateway: "mercadopago", CustomerID: card.CustomerID,
			CardID: card.ID, Brand: card.PaymentMethodID, Bin: card.FirstSix, LastFour: card.LastFour,
			ExpiryMonth: int16(card.ExpirationMonth), ExpiryYear: int16(card.ExpirationYear),
			HolderName: s.donor.first + " " + s.donor.last, HolderIDType: &idType, HolderIDNumber: &idNumber,
			DonorIsCardholder: true}); err != nil {
			return fmt.Errorf("payment method: %w", err)
		}
		row, err := s.formRow()
		if err != nil {
			return err
		}
		row.OrganizationID, row.ID, row.CampaignID, row.DonorID, row.PaymentMethodID = scope.OrgID, id, demoCampaigns[s.campaign].id, donorID, &pmID
		if s.recurrence == 1 {
			row.CollectDay = s.collectDay.Column()
		}
		if _, err := q.InsertFormDonation(ctx, row); err != nil && !errors.Is(err, dberr.ErrNotFound) { // found: a second run
			return fmt.Errorf("donation: %w", err)
		}
		first := sharddb.InsertFirstTransactionParams{OrganizationID: scope.OrgID, ID: charge.FirstTransactionID(id),
			DonationID: id, AmountMinor: s.total(), Currency: demoCurrency, Status: "pending", PaymentMethodID: &pmID}
		if s.recurrence == 1 { // charged on its collect day by collection (no immediate charge)
			p := s.firstPeriod.String()
			first.Period, first.Status = &p, "planned"
		}
		if err := q.InsertFirstTransaction(ctx, first); err != nil {
			return fmt.Errorf("first transaction: %w", err)
		}
		if err := q.SeedBackdateDonation(ctx, sharddb.SeedBackdateDonationParams{At: s.created, OrganizationID: scope.OrgID, ID: id}); err != nil {
			return err
		}
		if err := q.SeedBackdateTransactions(ctx, sharddb.SeedBackdateTransactionsParams{At: s.created, OrganizationID: scope.OrgID, DonationID: id}); err != nil {
			return err
		}
		return q.SeedBackdateDonor(ctx, sharddb.SeedBackdateDonorParams{At: s.created, OrganizationID: scope.OrgID, ID: donorID})
	})
	if err != nil {
		return err
	}
	fd := firstcharge.Donation{OrgID: scope.OrgID, ID: id, Recurrence: s.recurrence, Amount: s.total(), Currency: demoCurrency,
		CollectDay: s.collectDay}
	first, err := firstcharge.FirstOf(ctx, scope, fd)
	if err != nil {
		return err
	}
	var settler firstcharge.Settler // no Recurring: collection starts once the year is written
	today := s.created.In(time.UTC)
	if s.recurrence == 0 {
		if !first.Settled() { // else a second run
			if _, err := settler.Settle(ctx, scope, fd, first, s.attempts[0].outcome(s), today); err != nil {
				return err
			}
		}
		return scope.Store().SeedDateAttempts(ctx, sharddb.SeedDateAttemptsParams{OrganizationID: scope.OrgID, DonationID: id})
	}
	if first.Status == "planned" {
		if _, err := settler.Charge(ctx, scope, nil, fd, nil, gateway.Charge{}, today); err != nil {
			return fmt.Errorf("activate: %w", err)
		}
	}
	for _, a := range s.attempts {
		t := charge.Transaction{OrgID: scope.OrgID, ID: charge.AttemptID(id, a.period.String(), a.attempt), DonationID: id,
			Period: a.period.String(), Attempt: a.attempt, Amount: a.amount, Currency: demoCurrency, PaymentMethodID: &pmID}
		if err := charge.Record(ctx, scope, t, a.outcome(s)); err != nil {
			return err
		}
	}
	acts := &collection.Activities{Tenants: d.Tenants}
	for i, c := range s.changes {
		if err := acts.RecordVersion(ctx, collection.Version{ID: uuid.NewSHA1(id, fmt.Appendf(nil, "version/%d", i)).String(),
			OrganizationID: scope.OrgID.String(), DonationID: id.String(), Actor: c.actor, Field: c.field,
			Before: c.before, After: c.after, At: c.at}); err != nil {
			return err
		}
	}
	st := s.final
	st.PaymentMethod = collection.PaymentMethod{ID: pmID.String()}
	if err := acts.SyncDonation(ctx, st); err != nil {
		return err
	}
	return scope.Store().SeedDateAttempts(ctx, sharddb.SeedDateAttemptsParams{OrganizationID: scope.OrgID, DonationID: id})
}

// formRow is the donation's row as the form's submission writes it.
func (s story) formRow() (sharddb.InsertFormDonationParams, error) {
	type storedItem struct { // api/donation's items column
		UUID     string `json:"uuid"`
		Amount   int64  `json:"amount"`
		ItemName string `json:"item_name"`
		Quantity int    `json:"quantity"`
	}
	items := []storedItem{{UUID: uuid.NewSHA1(s.id(), []byte("item")).String(), Amount: s.amount,
		ItemName: demoCampaigns[s.campaign].title, Quantity: 1}}
	if len(s.items) > 0 {
		items = items[:0]
		for i, it := range s.items {
			items = append(items, storedItem{UUID: uuid.NewSHA1(s.id(), fmt.Appendf(nil, "item/%d", i)).String(),
				Amount: it.amount, ItemName: it.name, Quantity: it.quantity})
		}
	}
	itemsJSON, err := json.Marshal(items)
	if err != nil {
		return sharddb.InsertFormDonationParams{}, err
	}
	snapshot, err := json.Marshal(map[string]string{"first_name": s.donor.first, "last_name": s.donor.last,
		"email": s.donor.email, "uid_type": s.donor.uidType, "uid_number": s.donor.uidNumber})
	if err != nil {
		return sharddb.InsertFormDonationParams{}, err
	}
	key := s.key()
	return sharddb.InsertFormDonationParams{AmountMinor: s.total(), Currency: demoCurrency, Recurrence: int16(s.recurrence),
		IdempotencyKey: &key, Items: itemsJSON, UpgradeOptIn: s.upgradeOptIn, FormValues: json.RawMessage("[]"),
		DonorSnapshot: snapshot}, nil
}

// outcome is the attempt as the gateway answered it, with a payment id of the shape MercadoPago gives.
func (a attempt) outcome(s story) charge.Outcome {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", s.n, a.period, a.attempt)
	return charge.Outcome{Status: gateway.Status(a.status), Detail: a.detail, PausedReason: a.paused,
		PaymentID: fmt.Sprint(10_000_000_000 + h.Sum64()%9_000_000_000), At: a.at}
}

// writeLeads writes the people who left their e-mail on a form in the last weeks without donating.
func writeLeads(ctx context.Context, scope tenants.Scope, leads []person, anchor time.Time, loc *time.Location) error {
	q := scope.Store()
	for i, p := range leads {
		c := demoCampaigns[[]int{campaignMain, campaignMain, campaignEmergency, campaignDinner}[i%4]]
		if err := q.UpsertLead(ctx, sharddb.UpsertLeadParams{OrganizationID: scope.OrgID,
			ID: uuid.NewSHA1(DemoOrgID, fmt.Appendf(nil, "seed/lead/%d", i)), CampaignID: c.id, Email: p.email, FirstName: p.first}); err != nil {
			return err
		}
		at := anchor.Add(-time.Duration(i*85*24/len(leads)) * time.Hour).In(loc)
		if err := q.SeedBackdateLead(ctx, sharddb.SeedBackdateLeadParams{At: at, OrganizationID: scope.OrgID, Email: p.email}); err != nil {
			return err
		}
	}
	return nil
}

// writeVisits writes each campaign's daily visits: a dozen or so per donation of the day, and the
// people who only looked.
func writeVisits(ctx context.Context, scope tenants.Scope, stories []story, anchor time.Time, loc *time.Location) error {
	type key struct {
		campaign int
		day      string
	}
	gifts := map[key]int64{}
	for _, s := range stories {
		gifts[key{s.campaign, s.created.In(loc).Format(time.DateOnly)}]++
	}
	for ci, c := range demoCampaigns {
		var days []time.Time
		var visits []int64
		for back := range int(c.age.Hours() / 24) {
			day := anchor.In(loc).AddDate(0, 0, -back)
			d := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
			h := fnv.New32a()
			fmt.Fprintf(h, "%d/%d", ci, back)
			days = append(days, d)
			visits = append(visits, gifts[key{ci, d.Format(time.DateOnly)}]*int64(9+h.Sum32()%7)+int64(3+h.Sum32()%25))
		}
		if err := scope.Store().SeedVisits(ctx, sharddb.SeedVisitsParams{OrganizationID: scope.OrgID, CampaignID: c.id,
			Days: days, Visits: visits}); err != nil {
			return err
		}
	}
	return nil
}

// startCollection starts the workflow of every donation collection keeps charging, and tells it
// of the donation's periodic increase (the workflow holds upgrades; a first run loads none).
func startCollection(ctx context.Context, c client.Client, stories []story, workers int) (int, error) {
	todo := make(chan story)
	var mu sync.Mutex
	var firstErr error
	started := 0
	var wg sync.WaitGroup
	for range workers * 3 {
		wg.Go(func() {
			for s := range todo {
				err := startOne(ctx, c, s)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("collection of donation %d: %w", s.n, err)
				} else if err == nil {
					started++
				}
				mu.Unlock()
			}
		})
	}
	for _, s := range stories {
		if s.collected() {
			todo <- s
		}
	}
	close(todo)
	wg.Wait()
	return started, firstErr
}

func startOne(ctx context.Context, c client.Client, s story) error {
	id := s.id().String()
	if _, err := collection.Start(ctx, c, collection.TaskQueue, collection.Input{OrganizationID: DemoOrgID.String(), DonationID: id}); err != nil {
		return err
	}
	u := s.final.Upgrade
	if u == nil {
		return nil
	}
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: collection.WorkflowID(id),
		UpdateID: "seed-upgrade", UpdateName: collection.UpdateSetUpgrade, WaitForStage: client.WorkflowUpdateStageCompleted,
		Args: []any{collection.SetUpgradeRequest{Actor: collection.ActorSystem, ID: u.ID, BasisPoints: u.BasisPoints,
			PeriodMonths: u.PeriodMonths, Auto: u.Auto, NextPeriod: u.NextPeriod}}})
	if err != nil {
		return err
	}
	return h.Get(ctx, nil)
}

// SandboxCards saves cards at the organisation's connected sandbox MercadoPago account as the form
// does: the sandbox's test card tokenised with the account's public key (what the browser does),
// the donor as the account's customer, the card saved on them.
type SandboxCards struct {
	Clients    *connections.Clients
	GatewayURL string // the sandbox's base URL, where the browser tokenises
	HTTP       *http.Client
}

// Save saves the donor's card and answers it as the gateway keeps it.
func (c SandboxCards) Save(ctx context.Context, orgID uuid.UUID, p Person) (gateway.Card, error) {
	mp, conn, err := c.Clients.ForOrganization(ctx, orgID, connections.MercadoPago, demoCurrency)
	if err != nil {
		return gateway.Card{}, err
	}
	token, err := sandbox.CardToken(ctx, c.HTTP, c.GatewayURL, conn.PublicKey, p.Holder)
	if err != nil {
		return gateway.Card{}, err
	}
	cust, err := mp.EnsureCustomer(ctx, gateway.Customer{Email: p.Email, FirstName: p.FirstName, LastName: p.LastName,
		IDType: p.UIDType, IDNumber: p.UIDNumber})
	if err != nil {
		return gateway.Card{}, err
	}
	card, err := mp.SaveCard(ctx, cust.ID, token)
	card.CustomerID = cust.ID
	return card, err
}
