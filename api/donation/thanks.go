package donation

import (
	"context"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/thanks"
)

// sendThanks e-mails the donor their thank-you (thanks.Mailer) once the first charge is approved,
// or the monthly donation planned.
func (s *Service) sendThanks(ctx context.Context, lang i18n.Lang, out Outcome, email string) {
	if out.Status != "approved" && out.Status != "planned" {
		return
	}
	cp := out.Form.Campaign
	s.thanks.Send(ctx, lang, thanks.Donation{OrgID: out.Form.Scope.OrgID, ID: out.DonationID, Recurrence: out.Recurrency,
		Amount: out.AmountMinor, Currency: out.Currency, FirstName: out.FirstName, Email: email,
		Campaign: thanks.Campaign{Title: cp.Title, Slug: cp.Slug, Instant: cp.Thanks.Instant, EmailSubject: cp.Thanks.EmailSubject,
			Email: cp.Thanks.Email}})
}
