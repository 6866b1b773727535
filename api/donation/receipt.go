package donation

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
)

// Receipt is the thank-you page's summary: the donation as the form answered it, and for ticket
// campaigns the event and the tickets bought. No e-mail, document or card data.
type Receipt struct {
	Response
	Event   *campaign.Event `json:"event,omitempty"`
	Tickets []TicketView    `json:"tickets,omitempty"`
}

// TicketView is one ticket option bought.
type TicketView struct {
	Name     string `json:"name"`
	Quantity int    `json:"quantity"`
}

// GetReceipt answers GET /api/public/campaigns/:slug/receipts/:ref. A forged or expired
// reference, or one of another campaign, is a 404 that tells nothing about the donation.
func (h *Handler) GetReceipt(c *gin.Context) {
	ctx := c.Request.Context()
	notFound := apierror.New(http.StatusNotFound, "donation.receipt_invalid")
	orgID, id, ok := h.svc.receipts.Parse(c.Param("ref"), h.svc.now())
	if !ok {
		apierror.Abort(c, notFound)
		return
	}
	f, err := h.svc.forms.FormBySlug(ctx, c.Param("slug"))
	if errors.Is(err, campaign.ErrNotFound) || (err == nil && f.Scope.OrgID != orgID) {
		apierror.Abort(c, notFound)
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	out := Outcome{DonationID: id, Form: f}
	var status, txStatus string
	var day *int16
	var campaignID uuid.UUID
	var items []byte
	err = f.Scope.QueryRow(ctx, queries.Get("DonationReceipt"), orgID, id, charge.FirstTransactionID(id)).Scan(&status, &out.Recurrency,
		&out.AmountMinor, &out.Currency, &day, &out.FirstName, &campaignID, &items, &txStatus)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && campaignID != f.Campaign.ID) {
		apierror.Abort(c, notFound)
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	out.CollectDay = collectday.FromColumn(day)
	out.Status = publicStatus(status, txStatus)
	r := Receipt{Response: h.view(c, out)}
	r.Receipt = c.Param("ref")
	if f.Campaign.Type == "tickets" {
		r.Event = f.Campaign.Event
		var bought []storedItem
		if err := json.Unmarshal(items, &bought); err != nil {
			apierror.Abort(c, err)
			return
		}
		for _, it := range bought {
			r.Tickets = append(r.Tickets, TicketView{Name: it.ItemName, Quantity: it.Quantity})
		}
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, r)
}
