package donation

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/requestonce"
	"github.com/aporta/aporta/internal/thanks"
)

// Handler is the public side: the form's submission, its thank-you receipt and the convert-to-monthly link.
type Handler struct {
	svc    *Service
	submit *ratelimit.Limiter
}

// NewHandler builds the handler.
func NewHandler(svc *Service) *Handler {
	return &Handler{svc: svc, submit: ratelimit.New("donation_submit", 30, time.Minute)}
}

// Mount attaches the public routes.
func (h *Handler) Mount(g endpoint.Groups) {
	g.Public.POST("/d/:slug", h.submit.PerIP(), endpoint.Handle(h.Post))
	g.Public.POST(BankDebitNotificationPath+":organization", h.BankDebitNotify)
	g.Public.GET("/api/public/campaigns/:slug/receipts/:ref", noStore, endpoint.Handle(h.GetReceipt))
	g.Public.GET("/api/public/receipts/:ref", h.ReceiptLink)
	g.Public.GET("/api/public/donations/:uuid/convert", noStore, endpoint.Handle(h.GetConvert))
	g.Public.POST("/api/public/donations/:uuid/convert", noStore, endpoint.Handle(h.PostConvert))
}

// noStore keeps the answers of links that show one donation out of caches.
func noStore(c *gin.Context) { c.Header("Cache-Control", "no-store") }

// Response is the answer to a successful (or pending) submission.
type Response struct {
	Status   string       `json:"status"` // approved, planned (monthly, charged on the collect day), in_process
	Message  string       `json:"message"`
	Donation DonationView `json:"donation"`
	// ConvertToken lets a one-time donor turn the gift into a monthly donation
	// (GET/POST /api/public/donations/{uuid}/convert?token=…): single use, for ConvertTTL, only in
	// the answer that created the donation.
	ConvertToken string `json:"convert_token,omitempty"`
	// Receipt is the thank-you page's reference (GET /api/public/campaigns/{slug}/receipts/{receipt}).
	Receipt string `json:"receipt,omitempty"`
	// RedirectURL is where the donor approves an off-site bank debit at their bank (bankdebit.go).
	RedirectURL string `json:"redirect_url,omitempty"`
	// answerStatus is 201 for a new donation, 202 while the gateway decides, 200 for a replay.
	answerStatus
}

// answerStatus is an answer's HTTP status, 200 unless set; embedding it makes the answer an
// endpoint.StatusCoder.
type answerStatus struct{ status int }

func (a answerStatus) StatusCode() int { return cmp.Or(a.status, http.StatusOK) }

// DonationView is the donation as the thank-you page shows it.
type DonationView struct {
	UUID          string       `json:"uuid"`
	Recurrency    int          `json:"recurrency"`
	Amount        money.Amount `json:"amount"`
	CollectDay    *int         `json:"collect_day"` // null: last day of the month (monthly only)
	CampaignTitle string       `json:"campaign_title"`
	CampaignType  string       `json:"campaign_type"`
}

// SubmitRequest is POST /d/:slug: the public form's body.
type SubmitRequest struct {
	Slug string `path:"slug" json:"-"`
	Request
}

// Post answers POST /d/:slug. Card data in the body was refused before (middleware.RefuseCardData).
func (h *Handler) Post(ctx context.Context, req *SubmitRequest) (*Response, error) {
	// Its limits, gateway and charge read the processor routes and the gateway connection once (requestonce).
	ctx = requestonce.Start(ctx)
	f, err := h.svc.forms.FormBySlug(ctx, req.Slug)
	if errors.Is(err, campaign.ErrNotFound) {
		return nil, apierror.NotFound()
	}
	if err != nil {
		return nil, err
	}
	now := h.svc.now()
	if loc, lerr := time.LoadLocation(f.Org.Timezone); lerr == nil {
		now = now.In(loc)
	}
	lim := h.svc.forms.LimitsFor(ctx, f)
	sub, err := check(req.Request, f, lim, func(preset bool) int64 { return campaign.MinimumFor(f, lim, preset) }, now)
	if err != nil {
		return nil, err
	}
	if sub.BankDebit != nil {
		if h.svc.bankDebits == nil {
			return nil, bankDebitError(ErrBankDebitUnavailable)
		}
		return h.postBankDebit(ctx, f, sub)
	}
	out, err := h.svc.Create(ctx, f, sub)
	if err != nil {
		return nil, createError(err)
	}
	lang := i18n.FromContext(ctx)
	h.svc.followUp(ctx, lang, out, sub.Donor.Email)
	switch out.Status {
	case "rejected":
		return nil, apierror.New(http.StatusPaymentRequired, rejectionCode(out.Detail))
	case "unknown":
		return nil, apierror.New(http.StatusBadGateway, "donation.failed")
	}
	resp := view(lang, out)
	resp.Receipt = h.svc.receipts.Ref(f.Scope.OrgID, out.DonationID, h.svc.now())
	if out.Recurrency == 0 && out.Status == "approved" && !out.Replayed {
		// Only the answer that created the gift carries it: never a replay or a receipt. The donation this
		// request wrote holds its secret already; one a retry finds pending gets a new one.
		if out.convertSecret != nil {
			resp.ConvertToken = convertTokenOf(f.Scope.OrgID, out.convertSecret)
		} else {
			resp.ConvertToken = h.svc.issueConvertToken(ctx, f.Scope, out.DonationID)
		}
	}
	switch {
	case out.Status == "in_process":
		resp.status = http.StatusAccepted
	case out.Replayed:
		resp.status = http.StatusOK
	default:
		resp.status = http.StatusCreated
	}
	return &resp, nil
}

// view is the thank-you page's answer for a donation, in the donor's language.
func view(lang i18n.Lang, out Outcome) Response {
	cp := out.Form.Campaign
	amount := money.New(out.AmountMinor, out.Currency)
	tmpl := cp.Thanks.Instant
	if tmpl == "" {
		tmpl = i18n.T(lang, "campaign.thanks_default")
	}
	msg := thanks.Fill(tmpl, out.FirstName, amount.Format(), cp.Title)
	if out.Status == "in_process" {
		msg = i18n.T(lang, "donation.in_process")
	}
	resp := Response{Status: out.Status, Message: msg, Donation: DonationView{
		UUID: out.DonationID.String(), Recurrency: out.Recurrency, Amount: amount,
		CampaignTitle: cp.Title, CampaignType: cp.Type,
	}}
	if out.Recurrency == 1 {
		resp.Donation.CollectDay = out.CollectDay.Ptr()
	}
	return resp
}

// createError is Service.Create's error as the donor's message.
func createError(err error) error {
	var notAllowed *CardNotAllowedError
	var gerr *gateway.Error
	var soldOut *SoldOutError
	switch {
	case errors.As(err, &soldOut):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.ticket_sold_out",
			Params: []any{soldOut.Ticket, soldOut.Left}, Fields: map[string]string{"donation.items": "donation.ticket_sold_out_field"}, Err: err}
	case errors.As(err, &notAllowed):
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.card_not_allowed",
			Fields: map[string]string{"payment_method.method_id": "donation.card_type_refused"}, Err: err}
	case errors.Is(err, ErrNotAccepting):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.not_accepting", Err: err}
	case errors.Is(err, ErrKeyReused):
		return &apierror.Error{Status: http.StatusConflict, Code: "donation.idempotency_key_invalid", Err: err}
	case errors.As(err, &gerr) && gerr.Status < 500:
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: causeCode(gerr.Key), Err: err}
	}
	// Logged by Abort through the cause; the donor sees the spec's generic failure.
	return &apierror.Error{Status: http.StatusInternalServerError, Code: "donation.failed", Err: err}
}

// causeCode maps a gateway refusal's message key (first known cause wins) to ours.
func causeCode(k gateway.MessageKey) string {
	switch k {
	case gateway.KeyDocumentRequired:
		return "donation.gw_document_required"
	case gateway.KeyDocumentNumberRequired:
		return "donation.gw_document_number_required"
	case gateway.KeyInvalidName:
		return "donation.gw_invalid_name"
	case gateway.KeyCheckDocument:
		return "donation.gw_check_document"
	case gateway.KeyCheckExpiry:
		return "donation.gw_check_expiry"
	case gateway.KeyCardNumber:
		return "donation.gw_card_number"
	case gateway.KeySecurityCode:
		return "donation.gw_security_code"
	case gateway.KeyResourceBlocked:
		return "donation.gw_resource_blocked"
	case gateway.KeyCardVerification:
		return "donation.gw_card_verification"
	}
	return "donation.failed"
}

// rejectionCode maps a rejected payment's status detail (MercadoPago's status_detail, CentralPos's
// decline_code) to the donor's message.
func rejectionCode(detail string) string {
	switch detail {
	case "cc_rejected_bad_filled_security_code", "incorrect_cvc":
		return "donation.gw_security_code"
	case "cc_rejected_bad_filled_date", "expired_card":
		return "donation.gw_check_expiry"
	case "cc_rejected_bad_filled_card_number":
		return "donation.gw_card_number"
	case "cc_rejected_bad_filled_other", "invalid_card_data":
		return "donation.rejected_check_data"
	case "cc_rejected_insufficient_amount", "insufficient_funds":
		return "donation.rejected_insufficient_funds"
	case "cc_rejected_call_for_authorize", "call_issuer":
		return "donation.rejected_call_for_authorize"
	case "cc_rejected_card_type_not_allowed":
		return "donation.card_not_allowed"
	}
	return "donation.rejected"
}
