package donation

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
)

// ReceiptTTL is how long a thank-you page link shows its donation.
const ReceiptTTL = 30 * 24 * time.Hour

// receiptLen is a receipt reference's size before encoding: organisation id, donation id, expiry
// (Unix seconds) and their HMAC-SHA256.
const receiptLen = 16 + 16 + 8 + sha256.Size

// ReceiptRef signs (organisation, donation, expiry) for the thank-you page: whoever holds it sees
// that donation's summary until it expires, and nothing else.
func (s *Service) ReceiptRef(orgID, donationID uuid.UUID) string {
	b := make([]byte, 0, receiptLen)
	b = append(append(b, orgID[:]...), donationID[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(s.now().Add(ReceiptTTL).Unix()))
	return base64.RawURLEncoding.EncodeToString(append(b, s.mac(receiptPurpose, b)...))
}

const receiptPurpose = "donation-receipt:"

// parseReceipt checks a reference's signature and expiry.
func (s *Service) parseReceipt(ref string) (orgID, donationID uuid.UUID, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(ref)
	if err != nil || len(b) != receiptLen || len(s.secret) == 0 {
		return uuid.Nil, uuid.Nil, false
	}
	payload := b[:receiptLen-sha256.Size]
	if !hmac.Equal(b[len(payload):], s.mac(receiptPurpose, payload)) {
		return uuid.Nil, uuid.Nil, false
	}
	if int64(binary.BigEndian.Uint64(payload[32:])) <= s.now().Unix() {
		return uuid.Nil, uuid.Nil, false
	}
	orgID, _ = uuid.FromBytes(payload[:16])
	donationID, _ = uuid.FromBytes(payload[16:32])
	return orgID, donationID, true
}

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

// ReceiptRequest is GET /api/public/campaigns/:slug/receipts/:ref.
type ReceiptRequest struct {
	Slug string `path:"slug" json:"-"`
	Ref  string `path:"ref" json:"-"`
}

// GetReceipt answers GET /api/public/campaigns/:slug/receipts/:ref. A forged or expired
// reference, or one of another campaign, is a 404 that tells nothing about the donation.
func (h *Handler) GetReceipt(ctx context.Context, req *ReceiptRequest) (*Receipt, error) {
	notFound := apierror.New(http.StatusNotFound, "donation.receipt_invalid")
	orgID, id, ok := h.svc.parseReceipt(req.Ref)
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
	d, err := f.Scope.Store().DonationReceipt(ctx, sharddb.DonationReceiptParams{OrganizationID: orgID, ID: id, FirstTxID: firstTxID(id)})
	if errors.Is(err, dberr.ErrNotFound) || (err == nil && d.CampaignID != f.Campaign.ID) {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	out := Outcome{DonationID: id, Form: f, Status: publicStatus(d.Status, d.TxStatus), Recurrency: int(d.Recurrence),
		AmountMinor: d.AmountMinor, Currency: d.Currency, FirstName: d.FirstName}
	if d.CollectDay != nil {
		day := int(*d.CollectDay)
		out.CollectDay = &day
	}
	r := &Receipt{Response: view(i18n.FromContext(ctx), out)}
	r.Receipt = req.Ref
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
