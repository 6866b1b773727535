package donation

import (
	"context"
	"time"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/thanks"
	"github.com/aporta/aporta/workflows/firstcharge"
)

// followUp does what follows a first charge the request settled, after the answer (issue 19: the donor does not
// wait for it): an approved charge's receipt (receipt.Mailer) and the thank-you of an approved or planned donation
// (thanks.Mailer), each once however often asked; then it closes the first charge (firstcharge.Close). A process
// that dies before leaves the first charge open, and the first-charge sweep's guard sends what is unsent. A charge
// the gateway has not decided (in process, or its answer lost) stays open for that guard to settle.
func (s *Service) followUp(ctx context.Context, lang i18n.Lang, out Outcome, email string) {
	switch out.Status {
	case "approved", "planned", "rejected":
	default:
		return
	}
	scope := out.Form.Scope
	cp := out.Form.Campaign
	d := thanks.Donation{OrgID: scope.OrgID, ID: out.DonationID, Recurrence: out.Recurrency,
		Amount: out.AmountMinor, Currency: out.Currency, FirstName: out.FirstName, Email: email,
		Campaign: thanks.Campaign{Title: cp.Title, Slug: cp.Slug, Instant: cp.Thanks.Instant, EmailSubject: cp.Thanks.EmailSubject,
			Email: cp.Thanks.Email}}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	go func() {
		defer cancel()
		if out.Status == "approved" {
			if err := s.receiptMail.Send(ctx, scope, receipt.Charge{DonationID: out.DonationID,
				TransactionID: charge.FirstTransactionID(out.DonationID), Issued: out.receipt}); err != nil {
				s.log.ErrorContext(ctx, "donation: receipt e-mail", "donation_id", out.DonationID, "error", err)
				return // left open: the guard sends it
			}
		}
		if out.Status != "rejected" {
			s.thanks.Send(ctx, lang, d)
		}
		if err := firstcharge.Close(ctx, scope, out.DonationID); err != nil {
			s.log.WarnContext(ctx, "donation: close first charge", "donation_id", out.DonationID, "error", err)
		}
	}()
}
