package gateway

import "github.com/aporta/aporta/internal/i18n"

// Decline is why a gateway declined a charge, in the donor's terms: the manage area shows a
// donation's declines in words (the i18n code "decline.<decline>"), and collection e-mails the
// donor a link to change the card when another card would fix it.
type Decline string

// Declines.
const (
	DeclineInsufficientFunds Decline = "insufficient_funds"
	DeclineCardExpired       Decline = "card_expired"
	DeclineCardDisabled      Decline = "card_disabled"
	DeclineInvalidData       Decline = "invalid_data"
	DeclineSecurityCode      Decline = "security_code"
	DeclineNotSupported      Decline = "not_supported"
	DeclineCallIssuer        Decline = "call_for_authorize"
	DeclineHighRisk          Decline = "high_risk"
	DeclineStolen            Decline = "stolen"
	DeclineOther             Decline = "other"
)

// declines maps the gateways' status details (MercadoPago's status_detail, CentralPos's
// decline_code) to declines.
var declines = map[string]Decline{
	"cc_rejected_insufficient_amount":      DeclineInsufficientFunds,
	"insufficient_funds":                   DeclineInsufficientFunds,
	"cc_rejected_bad_filled_date":          DeclineCardExpired,
	"expired_card":                         DeclineCardExpired,
	"cc_rejected_card_disabled":            DeclineCardDisabled,
	"card_disabled":                        DeclineCardDisabled,
	"cc_rejected_bad_filled_other":         DeclineInvalidData,
	"cc_rejected_bad_filled_card_number":   DeclineInvalidData,
	"invalid_card_data":                    DeclineInvalidData,
	"cc_rejected_bad_filled_security_code": DeclineSecurityCode,
	"incorrect_cvc":                        DeclineSecurityCode,
	"cc_rejected_card_type_not_allowed":    DeclineNotSupported,
	"cc_rejected_call_for_authorize":       DeclineCallIssuer,
	"call_issuer":                          DeclineCallIssuer,
	"cc_rejected_high_risk":                DeclineHighRisk,
	"fraud_suspected":                      DeclineHighRisk,
	"cc_rejected_blacklist":                DeclineStolen,
	"stolen_card":                          DeclineStolen,
}

// DeclineOf is the decline a status detail means; "" for none (an approval, or no detail).
func DeclineOf(detail string) Decline {
	if d, ok := declines[detail]; ok {
		return d
	}
	switch detail {
	case "", "accredited", "pending_contingency", "pending_review_manual":
		return ""
	}
	return DeclineOther
}

// Fixable says whether the donor can fix the decline with another card or by funding this one:
// the recovery e-mail asks them to. (A stolen or high-risk card is not the donor's to fix, and a
// bank that asks for a call is not solved by a new card.)
func (d Decline) Fixable() bool {
	switch d {
	case DeclineInsufficientFunds, DeclineCardExpired, DeclineCardDisabled, DeclineInvalidData, DeclineSecurityCode, DeclineNotSupported:
		return true
	}
	return false
}

func init() {
	i18n.Register(i18n.Catalog{
		"decline.insufficient_funds": {i18n.ES: "fondos insuficientes", i18n.EN: "insufficient funds", i18n.PT: "saldo insuficiente"},
		"decline.card_expired":       {i18n.ES: "tarjeta vencida o fecha de vencimiento incorrecta", i18n.EN: "card expired or wrong expiry date", i18n.PT: "cartão vencido ou data de validade incorreta"},
		"decline.card_disabled":      {i18n.ES: "tarjeta cancelada o deshabilitada", i18n.EN: "card cancelled or disabled", i18n.PT: "cartão cancelado ou desabilitado"},
		"decline.invalid_data":       {i18n.ES: "datos de la tarjeta incorrectos", i18n.EN: "wrong card details", i18n.PT: "dados do cartão incorretos"},
		"decline.security_code":      {i18n.ES: "código de seguridad incorrecto", i18n.EN: "wrong security code", i18n.PT: "código de segurança incorreto"},
		"decline.not_supported":      {i18n.ES: "tipo de tarjeta no aceptado", i18n.EN: "card type not accepted", i18n.PT: "tipo de cartão não aceito"},
		"decline.call_for_authorize": {i18n.ES: "el banco pide autorizar el pago", i18n.EN: "the bank asks to authorise the payment", i18n.PT: "o banco pede para autorizar o pagamento"},
		"decline.high_risk":          {i18n.ES: "rechazado por riesgo", i18n.EN: "declined as high risk", i18n.PT: "recusado por risco"},
		"decline.stolen":             {i18n.ES: "tarjeta denunciada", i18n.EN: "card reported lost or stolen", i18n.PT: "cartão denunciado"},
		"decline.other":              {i18n.ES: "rechazado por el banco", i18n.EN: "declined by the bank", i18n.PT: "recusado pelo banco"},
	})
}
