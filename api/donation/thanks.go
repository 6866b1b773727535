package donation

import (
	"context"
	"net/url"
	"time"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/outbox"
)

// ThanksMailer queues the donor's thank-you e-mail once per key (outbox.Mailer).
type ThanksMailer interface {
	SendOnce(ctx context.Context, key string, msg outbox.Message) error
}

// sendThanks e-mails the donor the campaign's thank-you message (its e-mail subject and text; else
// its instant message, else the defaults) with the amount and a link to the thank-you page, once per donation: a replayed
// submission finds it sent. A failure is logged, never the donor's problem: the donation stands and
// the thank-you page shows the same summary.
func (s *Service) sendThanks(ctx context.Context, lang i18n.Lang, out Outcome, email string) {
	if s.mail == nil || (out.Status != "approved" && out.Status != "planned") {
		return
	}
	cp := out.Form.Campaign
	amount := money.New(out.AmountMinor, out.Currency).Format()
	fill := func(tmpl, fallback string) string {
		if tmpl == "" {
			tmpl = i18n.T(lang, fallback)
		}
		return campaign.FillThanks(tmpl, out.FirstName, amount, cp.Title)
	}
	frequency := i18n.T(lang, "donation.thanks_email_once")
	if out.Recurrency == 1 {
		frequency = i18n.T(lang, "donation.thanks_email_monthly")
	}
	link := s.publicURL + "/d/" + url.PathEscape(cp.Slug) + "/thanks?ref=" + url.QueryEscape(s.ReceiptRef(out.Form.Scope.OrgID, out.DonationID))
	text := cp.Thanks.Email
	if text == "" {
		text = cp.Thanks.Instant
	}
	// The campaign's texts and the donor's name are data: the template escapes them in the HTML part.
	msg, err := outbox.Compose(email, "donation_thanks", lang, map[string]any{
		"Subject": fill(cp.Thanks.EmailSubject, "donation.thanks_email_subject"), "Message": fill(text, "campaign.thanks_default"),
		"Amount": amount, "Frequency": frequency, "URL": link,
	})
	if err != nil {
		s.log.ErrorContext(ctx, "donation: thank-you e-mail", "donation_id", out.DonationID, "error", err)
		return
	}
	// The donation exists whether or not the donor's browser waits for the answer.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := s.mail.SendOnce(ctx, "donation-thanks/"+out.DonationID.String(), msg); err != nil {
		s.log.ErrorContext(ctx, "donation: thank-you e-mail", "donation_id", out.DonationID, "error", err)
	}
}
