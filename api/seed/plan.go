package seed

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/donation"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/workflows/collection"
)

// The demo's year is planned in memory first, deterministically from the organisation's creation
// time (the anchor), so a second run plans the same rows and writes nothing new. Each story is one
// donation as the form and collection would have left it: its submission, its charges with the
// collection's retry schedule, and the pauses, discards and increases of its year.

// DemoDonors is how many donors the demo organisation has.
const DemoDonors = 2000

// demoLeads is how many people left their e-mail on a form without donating (leads are kept 90 days).
const demoLeads = 300

type person struct {
	n                  int
	first, last, email string
	uidType, uidNumber string
	holderWord         string // the sandbox test card holder's first word: its payments' outcome
}

type item struct {
	name     string
	amount   int64
	quantity int
}

type attempt struct {
	at      time.Time
	status  string // approved or rejected
	detail  string
	paused  string // a refusal that pauses the donation (gateway.PausedReason)
	attempt int
	period  collectday.Period
	amount  int64
}

// change is a version-history row: a pause, a discard, an automatic increase.
type change struct {
	at            time.Time
	actor         string // "system" or the administrator
	field         string
	before, after any
}

type story struct {
	n            int
	donor        person
	campaign     int // index in demoCampaigns
	recurrence   int // 0 one-time, 1 monthly
	amount       int64
	items        []item
	upgradeOptIn bool
	created      time.Time
	collectDay   collectday.Day
	firstPeriod  collectday.Period // a monthly donation's first period: its month in the organisation's time zone
	attempts     []attempt         // the first charge of a one-time donation, or every period's attempts
	changes      []change
	final        collection.State // a monthly donation's state after its year (status, amount, upgrade…)
	rejected     bool             // the first charge of a one-time donation was refused
}

// collected says whether collection keeps charging the donation after the seed: its card must be real.
func (s story) collected() bool {
	return s.recurrence == 1 && (s.final.Status == collection.StatusActive || s.final.Status == collection.StatusPaused)
}

func (s story) id() uuid.UUID {
	return uuid.NewSHA1(DemoOrgID, fmt.Appendf(nil, "seed/donation/%d", s.n))
}
func (s story) key() string { return fmt.Sprintf("demo-seed-%05d", s.n) }
func (p person) id() uuid.UUID {
	return uuid.NewSHA1(DemoOrgID, fmt.Appendf(nil, "seed/donor/%d", p.n))
}
func (s story) total() int64 {
	if len(s.items) == 0 {
		return s.amount
	}
	t := int64(0)
	for _, it := range s.items {
		t += it.amount * int64(it.quantity)
	}
	return t
}

var (
	firstNames = []string{"María", "Juan", "Lucía", "Martín", "Sofía", "Santiago", "Valentina", "Mateo", "Camila",
		"Benjamín", "Julieta", "Tomás", "Florencia", "Nicolás", "Agustina", "Facundo", "Carolina", "Joaquín", "Paula",
		"Federico", "Micaela", "Lautaro", "Rocío", "Gonzalo", "Milagros", "Ignacio", "Victoria", "Emiliano", "Ana",
		"Diego", "Brenda", "Ezequiel", "Laura", "Pablo", "Natalia", "Hernán", "Daniela", "Sebastián", "Gabriela", "Ramiro"}
	lastNames = []string{"González", "Rodríguez", "Gómez", "Fernández", "López", "Díaz", "Martínez", "Pérez", "García",
		"Sánchez", "Romero", "Sosa", "Álvarez", "Torres", "Ruiz", "Ramírez", "Flores", "Benítez", "Acosta", "Medina",
		"Herrera", "Suárez", "Aguirre", "Giménez", "Gutiérrez", "Pereyra", "Rojas", "Molina", "Castro", "Ortiz",
		"Silva", "Núñez", "Luna", "Juárez", "Cabrera", "Ríos", "Ferreyra", "Godoy", "Morales", "Domínguez"}
	declines = []string{"cc_rejected_insufficient_amount", "cc_rejected_insufficient_amount", "cc_rejected_other_reason",
		"cc_rejected_call_for_authorize", "cc_rejected_bad_filled_date"}
	// hardDeclines are refusals that pause at once (collection never retries them).
	hardDeclines = [][2]string{{"cc_rejected_card_disabled", "last_transaction_card_cancelled"},
		{"cc_rejected_high_risk", "last_transaction_high_risk"}, {"cc_rejected_blacklist", "last_transaction_stolen_issue"}}
	manualPauses = []string{collection.PausedByOrg, collection.PausedDonorStopDebit, collection.PausedDonorStopDebit}
)

// asciiFold makes an e-mail's local part from a name.
func asciiFold(s string) string {
	r := map[rune]string{'á': "a", 'é': "e", 'í': "i", 'ó': "o", 'ú': "u", 'ñ': "n", 'Á': "a", 'É': "e", 'Í': "i", 'Ó': "o", 'Ú': "u"}
	out := make([]byte, 0, len(s))
	for _, c := range s {
		if x, ok := r[c]; ok {
			out = append(out, x...)
		} else if c >= 'A' && c <= 'Z' {
			out = append(out, byte(c-'A'+'a'))
		} else if c < 128 {
			out = append(out, byte(c))
		}
	}
	return string(out)
}

func newPerson(n int, r *rand.Rand) person {
	f, l := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
	p := person{n: n, first: f, last: l, email: fmt.Sprintf("%s.%s%d@example.com", asciiFold(f), asciiFold(l), n),
		holderWord: "APRO"}
	if r.IntN(10) < 7 {
		p.uidType, p.uidNumber = "DNI", fmt.Sprint(20_000_000+r.IntN(25_000_000))
	}
	return p
}

// when is a moment of the year before anchor, more of them recent (the organisation grows).
func when(anchor time.Time, r *rand.Rand, days float64) time.Time {
	back := days * (1 - math.Pow(r.Float64(), 0.75))
	t := anchor.Add(-time.Duration(back * float64(24*time.Hour)))
	// Donations come in the day, between 8 and 23 local time, roughly.
	return t.Add(-time.Duration(r.IntN(60)) * time.Minute)
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// planYear plans every story. loc is the organisation's time zone; actor signs manual changes.
func planYear(anchor time.Time, loc *time.Location, actor string) ([]story, []person) {
	var stories []story
	var leads []person
	n := 0
	for d := range DemoDonors {
		r := rand.New(rand.NewPCG(18, uint64(d)))
		p := newPerson(d, r)
		gifts := 1
		if r.IntN(100) < 8 {
			gifts = 2 // a one-time gift first, a monthly one later
		}
		first := when(anchor, r, 365)
		for g := range gifts {
			s := story{n: n, donor: p, created: first}
			n++
			if g == 1 {
				s.created = first.Add(time.Duration(1+r.IntN(int(max(1, anchor.Sub(first).Hours()/24)))) * 24 * time.Hour / 2)
				if !s.created.Before(anchor) {
					s.created = first.Add(time.Hour)
				}
			}
			planStory(&s, anchor, loc, actor, r, gifts == 2 && g == 0)
			stories = append(stories, s)
		}
	}
	for l := range demoLeads {
		r := rand.New(rand.NewPCG(1818, uint64(l)))
		p := newPerson(DemoDonors+l, r)
		p.email = "interesado." + p.email
		leads = append(leads, p)
	}
	return stories, leads
}

// planStory chooses the story's campaign and amount, then lives its year.
func planStory(s *story, anchor time.Time, loc *time.Location, actor string, r *rand.Rand, oneTimeFirst bool) {
	roll := r.IntN(100)
	switch {
	case oneTimeFirst || (roll >= 62 && roll < 80):
		s.campaign = campaignEmergency
		if roll%3 == 0 && !oneTimeFirst {
			s.campaign = campaignMain
		}
	case roll >= 80 && roll < 88 && anchor.Sub(s.created) < 100*24*time.Hour:
		s.campaign = campaignDinner
	case roll < 40 || roll >= 80:
		s.campaign = campaignMain
	case roll < 52:
		s.campaign = campaignStreet
	default:
		s.campaign = campaignPhone
	}
	c := demoCampaigns[s.campaign]
	if c.tickets != nil {
		t := c.tickets[0]
		if r.IntN(6) == 0 {
			t = c.tickets[1]
		}
		s.items = []item{{name: t.name, amount: t.price, quantity: 1 + r.IntN(t.most)}}
		s.amount = s.total()
	} else if r.IntN(10) < 8 {
		s.amount = pick(r, c.presets)
	} else {
		s.amount = int64(1500+r.IntN(40)*500) * 100 // "Otro monto": whole pesos
	}
	if c.oneTime {
		oneTime(s, r)
		return
	}
	s.recurrence = 1
	s.upgradeOptIn = c.upgrade && r.IntN(4) == 0
	monthly(s, anchor, loc, actor, r)
}

func oneTime(s *story, r *rand.Rand) {
	a := attempt{at: s.created.Add(time.Duration(5+r.IntN(50)) * time.Second), status: "approved", attempt: 1, amount: s.total()}
	if r.IntN(100) < 8 {
		a.status, a.detail, s.rejected = "rejected", pick(r, declines), true
	}
	s.attempts = []attempt{a}
}

// monthly lives a monthly donation's periods from its creation to the first period collection will
// charge after the seed (collectday.First at the anchor), with collection's rules: the retry
// schedule, a pause after DefaultMaxFailedPeriods failed periods or at a hard decline, the periodic
// increase on its periods; and now and then a pause or a discard asked by the donor or the organisation.
func monthly(s *story, anchor time.Time, loc *time.Location, actor string, r *rand.Rand) {
	local := s.created.In(loc)
	s.collectDay = collectday.Of(local)
	st := collection.State{OrganizationID: DemoOrgID.String(), DonationID: s.id().String(), Status: collection.StatusActive,
		Amount: s.amount, Currency: demoCurrency, CollectDay: s.collectDay, Timezone: loc.String(),
		MaxFailedPeriods: collection.DefaultMaxFailedPeriods}
	if s.upgradeOptIn {
		st.Upgrade = &collection.Upgrade{ID: uuid.NewSHA1(DemoOrgID, fmt.Appendf(nil, "seed/upgrade/%d", s.n)).String(),
			BasisPoints: 1000, PeriodMonths: 6, Auto: true, NextPeriod: collectday.PeriodOf(local).AddMonths(6),
			OldAmount: s.amount, NewAmount: s.amount}
	}
	end := s.collectDay.First(anchor, loc)
	p := collectday.PeriodOf(local)
	s.firstPeriod = p
	last := s.created
	for i := 0; p.Before(end); i, p = i+1, p.Next() {
		due := s.collectDay.Date(p, loc)
		if i > 0 {
			// Between charges: a manual pause or discard now and then.
			at := due.Add(-time.Duration(1+r.IntN(9))*24*time.Hour + time.Duration(9+r.IntN(9))*time.Hour)
			if at.Before(last) {
				at = last.Add(time.Hour)
			}
			switch x := r.IntN(1000); {
			case x < 12:
				reason := pick(r, manualPauses)
				s.changes = append(s.changes, change{at: at, actor: actor, field: "status",
					before: map[string]string{"status": st.Status}, after: map[string]string{"status": collection.StatusPaused, "paused_reason": reason}})
				st.Status, st.PausedReason, st.PausedSince, st.NextPeriod = collection.StatusPaused, reason, at, p
			case x < 22:
				reason := pick(r, donation.DiscardReasons)
				s.changes = append(s.changes, change{at: at, actor: actor, field: "status",
					before: map[string]string{"status": st.Status}, after: map[string]string{"status": collection.StatusDiscarded, "discard_reason": reason}})
				st.Status, st.DiscardReason, st.DiscardedAt, st.NextPeriod = collection.StatusDiscarded, reason, at, p
			}
			if st.Status != collection.StatusActive {
				break
			}
		}
		if u := st.Upgrade; u != nil && !p.Before(u.NextPeriod) {
			old := st.Amount
			st.Amount = collection.IncreaseAmount(old, u.BasisPoints, 0)
			u.OldAmount, u.NewAmount = old, st.Amount
			u.History = append(u.History, collection.UpgradeApplied{Period: u.NextPeriod, OldAmount: old, NewAmount: st.Amount})
			u.NextPeriod = u.NextPeriod.AddMonths(u.PeriodMonths)
			s.changes = append(s.changes, change{at: due.Add(time.Hour), actor: collection.ActorSystem, field: "amount", before: old, after: st.Amount})
		}
		approved, tried := false, 0
		for a, wait := range collection.RetrySchedule {
			at := due.Add(wait).Add(time.Duration(8*60+r.IntN(10*60)) * time.Minute)
			if !at.After(last) { // the first charge of a donation made late on its collect day
				at = last.Add(time.Duration(5+r.IntN(55)) * time.Minute)
			}
			if !at.Before(anchor) {
				break // not tried yet when the seed runs
			}
			tried++
			att := attempt{at: at, attempt: a + 1, period: p, amount: st.Amount, status: "rejected"}
			last = at
			chance := 40
			if a == 0 {
				chance = 87
			}
			if x := r.IntN(1000); x < 6 {
				hd := pick(r, hardDeclines)
				att.detail, att.paused = hd[0], hd[1]
			} else if x%100 < chance {
				att.status, approved = "approved", true
			} else {
				att.detail = pick(r, declines)
			}
			s.attempts = append(s.attempts, att)
			if approved || att.paused != "" {
				break
			}
		}
		if n := len(s.attempts); n > 0 && s.attempts[n-1].paused != "" && s.attempts[n-1].period == p {
			reason := s.attempts[n-1].paused
			s.changes = append(s.changes, change{at: last, actor: collection.ActorSystem, field: "status",
				before: map[string]string{"status": st.Status}, after: map[string]string{"status": collection.StatusPaused, "paused_reason": reason}})
			st.Status, st.PausedReason, st.PausedSince = collection.StatusPaused, reason, last
			st.NextPeriod = p.Next()
			break
		}
		if approved {
			st.ConsecutiveFailed = 0
		} else if tried > 0 {
			st.ConsecutiveFailed++
		}
		st.NextPeriod = p.Next()
		if st.ConsecutiveFailed >= st.MaxFailedPeriods {
			s.changes = append(s.changes, change{at: last, actor: collection.ActorSystem, field: "status",
				before: map[string]string{"status": st.Status}, after: map[string]string{"status": collection.StatusPaused, "paused_reason": collection.PausedLastXMonths}})
			st.Status, st.PausedReason, st.PausedSince = collection.StatusPaused, collection.PausedLastXMonths, last
			break
		}
	}
	if st.Status == collection.StatusActive {
		st.NextPeriod = end
	}
	s.final = st
}
