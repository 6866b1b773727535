package campaign

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/i18n"
)

// CardErrorRequest is the donor's browser reporting that the gateway refused to tokenise a card
// (donor-and-campaigns §8): what identifies the card's issuer and shape, never its number or
// security code. Unknown body fields are refused, so a client cannot send more of the card.
type CardErrorRequest struct {
	SlugRequest
	BIN      string `json:"bin"`       // the first 6 to 8 digits
	LastFour string `json:"last_four"` // the last 4
	Length   int    `json:"length"`    // how many digits the donor typed
	Code     string `json:"code"`      // the gateway's error code or cause
	Message  string `json:"message"`   // the gateway's message, as the donor saw it
}

var (
	binRe      = regexp.MustCompile(`^[0-9]{6,8}$`)
	lastFourRe = regexp.MustCompile(`^[0-9]{4}$`)
	codeRe     = regexp.MustCompile(`^[A-Za-z0-9_.:-]{0,64}$`)
	// digitRunRe finds runs of digits (spaces and dashes between them allowed) long enough to be a
	// card number: the message must not carry one.
	digitRunRe = regexp.MustCompile(`[0-9](?:[ -]?[0-9]){11,}`)
)

// Validate keeps a report to the card's public facts.
func (r *CardErrorRequest) Validate() error {
	fields := map[string]string{}
	if !binRe.MatchString(r.BIN) {
		fields["bin"] = "campaign.card_report_invalid"
	}
	if !lastFourRe.MatchString(r.LastFour) {
		fields["last_four"] = "campaign.card_report_invalid"
	}
	if r.Length < 12 || r.Length > 19 || r.Length < len(r.BIN)+len(r.LastFour) {
		fields["length"] = "campaign.card_report_invalid"
	}
	r.Code = strings.TrimSpace(r.Code)
	if !codeRe.MatchString(r.Code) {
		fields["code"] = "campaign.card_report_invalid"
	}
	r.Message = strings.TrimSpace(r.Message)
	if utf8.RuneCountInString(r.Message) > 300 || digitRunRe.MatchString(r.Message) {
		fields["message"] = "campaign.card_report_invalid"
	}
	return apierror.Invalid(fields)
}

// PostCardError answers POST /api/public/campaigns/:slug/card_errors: the report goes to the log
// (error reporting), tied to the campaign and its organisation. 204.
func (h *Handler) PostCardError(ctx context.Context, r *CardErrorRequest) (*struct{}, error) {
	f, err := h.svc.FormBySlug(ctx, r.Slug)
	if err != nil {
		return nil, err
	}
	h.log.WarnContext(ctx, "card tokenisation failed", "organization_id", f.Scope.OrgID, "campaign_id", f.Campaign.ID,
		"bin", r.BIN, "last_four", r.LastFour, "length", r.Length, "code", r.Code, "message", r.Message)
	return nil, nil
}

func init() {
	i18n.Register(i18n.Catalog{
		"campaign.card_report_invalid": {
			i18n.ES: "El reporte solo admite el BIN, los últimos cuatro dígitos, el largo de la tarjeta y el mensaje del procesador.",
			i18n.EN: "The report only takes the BIN, the last four digits, the card's length and the processor's message.",
			i18n.PT: "O relatório aceita apenas o BIN, os últimos quatro dígitos, o comprimento do cartão e a mensagem do processador.",
		},
	})
}
