// Package thanks is a donor's thank-you once a donation's first charge is settled: the campaign's
// message with its short codes filled, the e-mail (sent once per donation, by the donation form
// or by the first-charge guard, whichever settles the charge), and the signed reference of the
// thank-you page it links to.
package thanks

import (
	"context"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/portal"
)

// Fill replaces the short codes of a thank-you message in every language.
func Fill(tmpl, firstName, amount, campaignTitle string) string {
	return strings.NewReplacer(
		"{nombre}", firstName, "{name}", firstName, "{nome}", firstName,
		"{monto}", amount, "{amount}", amount, "{valor}", amount,
		"{campaña}", campaignTitle, "{campaign}", campaignTitle, "{campanha}", campaignTitle,
	).Replace(tmpl)
}

// ReceiptTTL is how long a thank-you page link shows its donation.
const ReceiptTTL = 30 * 24 * time.Hour

const receiptPurpose = "donation-receipt:"

// Receipts signs and checks thank-you page references with the platform's secret.
type Receipts struct{ Secret []byte }

// Ref signs (organisation, donation, now+ReceiptTTL): whoever holds it sees that donation's
// summary until it expires, and nothing else.
func (r Receipts) Ref(orgID, donationID uuid.UUID, now time.Time) string {
	return portal.Keys{Secret: r.Secret}.Sign(receiptPurpose, orgID, donationID, now.Add(ReceiptTTL))
}

// Parse checks a reference's signature and expiry at now.
func (r Receipts) Parse(ref string, now time.Time) (orgID, donationID uuid.UUID, ok bool) {
	return portal.Keys{Secret: r.Secret, Now: func() time.Time { return now }}.Parse(receiptPurpose, ref)
}

// Campaign is what a thank-you needs of its campaign: its title, its form's slug and its texts.
type Campaign struct {
	Title        string
	Slug         string
	Instant      string // the thank-you page's message
	EmailSubject string
	Email        string
}

// Donation is the donation a thank-you is for.
type Donation struct {
	OrgID      uuid.UUID
	ID         uuid.UUID
	Recurrence int
	Amount     int64 // minor units
	Currency   string
	FirstName  string // as the submission gave it
	Email      string
	Campaign   Campaign
}

// Outbox queues an e-mail once per key (outbox.Mailer).
type Outbox interface {
	SendOnce(ctx context.Context, key string, msg outbox.Message) error
}

// Mailer e-mails donors their thank-you.
type Mailer struct {
	Outbox    Outbox // nil: no thank-you e-mails
	Receipts  Receipts
	PublicURL string // where the thank-you page links point
	Now       func() time.Time
	Log       *slog.Logger
}

// Send e-mails the donor the campaign's thank-you message (its e-mail subject and text; else its
// instant message, else the defaults) with the amount and a link to the thank-you page, once per
// donation: a replayed submission or a later check finds it sent. A failure is logged, never the
// donor's problem: the donation stands and the thank-you page shows the same summary.
func (m Mailer) Send(ctx context.Context, lang i18n.Lang, d Donation) {
	if m.Outbox == nil {
		return
	}
	log, now := m.Log, m.Now
	if log == nil {
		log = slog.Default()
	}
	if now == nil {
		now = time.Now
	}
	cp := d.Campaign
	amount := money.New(d.Amount, d.Currency).Format()
	fill := func(tmpl, fallback string) string {
		if tmpl == "" {
			tmpl = i18n.T(lang, fallback)
		}
		return Fill(tmpl, d.FirstName, amount, cp.Title)
	}
	frequency := i18n.T(lang, "donation.thanks_email_once")
	if d.Recurrence == 1 {
		frequency = i18n.T(lang, "donation.thanks_email_monthly")
	}
	link := m.PublicURL + "/d/" + url.PathEscape(cp.Slug) + "/thanks?ref=" + url.QueryEscape(m.Receipts.Ref(d.OrgID, d.ID, now()))
	text := cp.Email
	if text == "" {
		text = cp.Instant
	}
	// The campaign's texts and the donor's name are data: the template escapes them in the HTML part.
	msg, err := outbox.Compose(d.Email, "donation_thanks", lang, map[string]any{
		"Subject": fill(cp.EmailSubject, "donation.thanks_email_subject"), "Message": fill(text, "campaign.thanks_default"),
		"Amount": amount, "Frequency": frequency, "URL": link,
		// Where the donor asks for a link into their donations (the donor portal).
		"Portal": portal.URL(m.PublicURL, cp.Slug, ""),
	})
	if err != nil {
		log.ErrorContext(ctx, "donation: thank-you e-mail", "donation_id", d.ID, "error", err)
		return
	}
	// The donation exists whether or not the donor's browser waits for the answer.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := m.Outbox.SendOnce(ctx, "donation-thanks/"+d.ID.String(), msg); err != nil {
		log.ErrorContext(ctx, "donation: thank-you e-mail", "donation_id", d.ID, "error", err)
	}
}
