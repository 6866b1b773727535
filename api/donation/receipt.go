package donation

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
)

// Receipt is the thank-you page's summary: the donation as the form answered it, and for ticket
// campaigns the event and the tickets bought. No e-mail, document or card data.
type Receipt struct {
	Response
	Event     *campaign.Event `json:"event,omitempty"`
	Tickets   []TicketView    `json:"tickets,omitempty"`
	BankDebit *BankDebitView  `json:"bank_debit,omitempty"` // paid by off-site bank debit
}

// TicketView is one ticket option bought.
type TicketView struct {
	Name     string `json:"name"`
	Quantity int    `json:"quantity"`
}

// ReceiptRequest is GET /api/public/campaigns/:slug/receipts/:ref.
type ReceiptRequest struct {
	Slug string `path:"slug" json:"-"`
	Ref  string `path:"ref" json:"-"`
}

// GetReceipt answers GET /api/public/campaigns/:slug/receipts/:ref. A forged or expired
// reference, or one of another campaign, is a 404 that tells nothing about the donation.
func (h *Handler) GetReceipt(ctx context.Context, req *ReceiptRequest) (*Receipt, error) {
	notFound := apierror.New(http.StatusNotFound, "donation.receipt_invalid")
	orgID, id, ok := h.svc.receipts.Parse(req.Ref, h.svc.now())
	if !ok {
		return nil, notFound
	}
	f, err := h.svc.forms.FormBySlug(ctx, req.Slug)
	if errors.Is(err, campaign.ErrNotFound) || (err == nil && f.Scope.OrgID != orgID) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	d, err := f.Scope.Store().DonationReceipt(ctx, sharddb.DonationReceiptParams{OrganizationID: orgID, ID: id, FirstTxID: charge.FirstTransactionID(id)})
	if errors.Is(err, dberr.ErrNotFound) || (err == nil && d.CampaignID != f.Campaign.ID) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	out := Outcome{DonationID: id, Form: f, Status: publicStatus(d.Status, d.TxStatus), Recurrency: int(d.Recurrence),
		AmountMinor: d.AmountMinor, Currency: d.Currency, FirstName: d.FirstName, CollectDay: collectday.FromColumn(d.CollectDay)}
	lang := i18n.FromContext(ctx)
	r := &Receipt{Response: view(lang, out)}
	r.Receipt = req.Ref
	if err := bankDebitReceipt(ctx, f.Scope, lang, id, r); err != nil {
		return nil, err
	}
	if f.Campaign.Type == "tickets" {
		r.Event = f.Campaign.Event
		var bought []storedItem
		if err := json.Unmarshal(d.Items, &bought); err != nil {
			return nil, err
		}
		for _, it := range bought {
			r.Tickets = append(r.Tickets, TicketView{Name: it.ItemName, Quantity: it.Quantity})
		}
	}
	return r, nil
}
