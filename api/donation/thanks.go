package donation

import (
	"context"
	"time"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/thanks"
)

// mailDonor e-mails the donor their thank-you (thanks.Mailer) once the first charge is approved, or
// the monthly donation planned, and an approved first charge's receipt (receipt.Mailer), each once
// however often asked. An approved charge's e-mails go after the answer (issue 19: the donor does not
// wait for them): its first-charge guard sends whichever a process that died first left unsent
// (firstcharge.Activities.SettleFirstCharge). A planned donation has no guard: its thank-you goes
// before the answer.
func (s *Service) mailDonor(ctx context.Context, lang i18n.Lang, out Outcome, email string) {
	if out.Status != "approved" && out.Status != "planned" {
		return
	}
	cp := out.Form.Campaign
	d := thanks.Donation{OrgID: out.Form.Scope.OrgID, ID: out.DonationID, Recurrence: out.Recurrency,
		Amount: out.AmountMinor, Currency: out.Currency, FirstName: out.FirstName, Email: email,
		Campaign: thanks.Campaign{Title: cp.Title, Slug: cp.Slug, Instant: cp.Thanks.Instant, EmailSubject: cp.Thanks.EmailSubject,
			Email: cp.Thanks.Email}}
	if out.Status == "planned" {
		s.thanks.Send(ctx, lang, d)
		return
	}
	mail := func(ctx context.Context) {
		scope := out.Form.Scope
		if err := s.receiptMail.Send(ctx, scope, receipt.Charge{DonationID: out.DonationID,
			TransactionID: charge.FirstTransactionID(out.DonationID)}); err != nil {
			s.log.ErrorContext(ctx, "donation: receipt e-mail", "donation_id", out.DonationID, "error", err)
		}
		s.thanks.Send(ctx, lang, d)
	}
	if s.guard == nil { // nothing would send them if this process died
		mail(ctx)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	go func() {
		defer cancel()
		mail(ctx)
	}()
}
