package donation

import (
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
)

// Handler exposes donation creation and convert-to-monthly.
type Handler struct {
	svc    *Service
	submit *ratelimit.Limiter
}

// NewHandler builds the handler.
func NewHandler(svc *Service) *Handler {
	return &Handler{svc: svc, submit: ratelimit.New("donation_submit", 30, time.Minute)}
}

// Mount attaches the public routes.
func (h *Handler) Mount(public *gin.RouterGroup) {
	public.POST("/d/:slug", h.submit.PerIP(), h.Post)
	public.GET("/api/public/campaigns/:slug/receipts/:ref", h.GetReceipt)
	public.GET("/api/public/donations/:uuid/convert", h.GetConvert)
	public.POST("/api/public/donations/:uuid/convert", h.PostConvert)
}

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
}

// DonationView is the donation as the thank-you page shows it.
type DonationView struct {
	UUID          string       `json:"uuid"`
	Recurrency    int          `json:"recurrency"`
	Amount        money.Amount `json:"amount"`
	CollectDay    *int         `json:"collect_day"` // null: last day of the month (monthly only)
	CampaignTitle string       `json:"campaign_title"`
	CampaignType  string       `json:"campaign_type"`
}

// Post answers POST /d/:slug. Card data in the body was refused before (middleware.RefuseCardData).
func (h *Handler) Post(c *gin.Context) {
	var req Request
	if err := request.JSON(c, &req); err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	f, err := h.svc.forms.FormBySlug(ctx, c.Param("slug"))
	if errors.Is(err, campaign.ErrNotFound) {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	now := h.svc.now()
	if loc, lerr := time.LoadLocation(f.Org.Timezone); lerr == nil {
		now = now.In(loc)
	}
	sub, err := check(req, f, h.svc.forms.LimitsFor(ctx, f), func(preset bool) int64 { return h.svc.forms.MinimumFor(ctx, f, preset) }, now)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	out, err := h.svc.Create(ctx, f, sub)
	if err != nil {
		abortCreate(c, err)
		return
	}
	switch out.Status {
	case "rejected":
		apierror.Abort(c, apierror.New(http.StatusPaymentRequired, rejectionCode(out.Detail)))
		return
	case "unknown":
		apierror.Abort(c, apierror.New(http.StatusBadGateway, "donation.failed"))
		return
	}
	resp := h.view(c, out)
	resp.Receipt = h.svc.ReceiptRef(f.Scope.OrgID, out.DonationID)
	if out.Recurrency == 0 && out.Status == "approved" && !out.Replayed {
		// Only the answer that created the gift carries it: never a replay or a receipt.
		resp.ConvertToken = h.svc.issueConvertToken(ctx, f.Scope, out.DonationID)
	}
	h.svc.sendThanks(ctx, apierror.Lang(c), out, sub.Donor.Email)
	status := http.StatusCreated
	switch {
	case out.Status == "in_process":
		status = http.StatusAccepted
	case out.Replayed:
		status = http.StatusOK
	}
	c.JSON(status, resp)
}

func (h *Handler) view(c *gin.Context, out Outcome) Response {
	cp := out.Form.Campaign
	amount := money.New(out.AmountMinor, out.Currency)
	tmpl := cp.Thanks.Instant
	if tmpl == "" {
		tmpl = i18n.T(apierror.Lang(c), "campaign.thanks_default")
	}
	msg := campaign.FillThanks(tmpl, out.FirstName, amount.Format(), cp.Title)
	if out.Status == "in_process" {
		msg = i18n.T(apierror.Lang(c), "donation.in_process")
	}
	resp := Response{Status: out.Status, Message: msg, Donation: DonationView{
		UUID: out.DonationID.String(), Recurrency: out.Recurrency, Amount: amount,
		CampaignTitle: cp.Title, CampaignType: cp.Type,
	}}
	if out.Recurrency == 1 {
		resp.Donation.CollectDay = out.CollectDay
	}
	return resp
}

func abortCreate(c *gin.Context, err error) {
	var notAllowed *CardNotAllowedError
	var gerr *gateway.Error
	var soldOut *SoldOutError
	switch {
	case errors.As(err, &soldOut):
		apierror.Abort(c, &apierror.Error{Status: http.StatusConflict, Code: "donation.ticket_sold_out",
			Params: []any{soldOut.Ticket, soldOut.Left}, Fields: map[string]string{"donation.items": "donation.ticket_sold_out_field"}, Err: err})
	case errors.As(err, &notAllowed):
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.card_not_allowed",
			Fields: map[string]string{"payment_method.method_id": "donation.card_type_refused"}, Err: err})
	case errors.Is(err, ErrNotAccepting):
		apierror.Abort(c, &apierror.Error{Status: http.StatusConflict, Code: "donation.not_accepting", Err: err})
	case errors.Is(err, ErrKeyReused):
		apierror.Abort(c, &apierror.Error{Status: http.StatusConflict, Code: "donation.idempotency_key_invalid", Err: err})
	case errors.As(err, &gerr) && gerr.Status < 500:
		apierror.Abort(c, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: causeCode(gerr.Key), Err: err})
	default:
		// Logged by Abort through the cause; the donor sees the spec's generic failure.
		apierror.Abort(c, &apierror.Error{Status: http.StatusInternalServerError, Code: "donation.failed", Err: err})
	}
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

// rejectionCode maps a rejected payment's status detail to the donor's message.
func rejectionCode(detail string) string {
	switch detail {
	case "cc_rejected_bad_filled_security_code":
		return "donation.gw_security_code"
	case "cc_rejected_bad_filled_date":
		return "donation.gw_check_expiry"
	case "cc_rejected_bad_filled_card_number":
		return "donation.gw_card_number"
	case "cc_rejected_bad_filled_other":
		return "donation.rejected_check_data"
	case "cc_rejected_insufficient_amount":
		return "donation.rejected_insufficient_funds"
	case "cc_rejected_call_for_authorize":
		return "donation.rejected_call_for_authorize"
	case "cc_rejected_card_type_not_allowed":
		return "donation.card_not_allowed"
	}
	return "donation.rejected"
}
