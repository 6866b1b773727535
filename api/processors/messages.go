package processors

import "github.com/aporta/aporta/internal/i18n"

// Error codes.
const (
	CodeGatewayUnknown      = "processor.gateway_unknown"
	CodeNotAvailable        = "processor.not_available"
	CodeGlobalNotAvailable  = "processor.global_not_available"
	CodeLimitReached        = "processor.limit_reached"
	CodeBankAccountRequired = "processor.bank_account_required"
	CodeBankAccountNotLocal = "processor.bank_account_not_local"
	CodeRulesRequired       = "processor.rules_required"
	CodeRetryGlobalOnly     = "processor.retry_global_only"
	CodeCampaignUnknown     = "processor.campaign_unknown"
	CodeTrackInvalid        = "processor.track_invalid"
)

func init() {
	i18n.Register(i18n.Catalog{
		CodeGatewayUnknown:      {i18n.ES: "Elige pagos locales o pagos globales.", i18n.EN: "Choose local payments or global payments.", i18n.PT: "Escolha pagamentos locais ou pagamentos globais."},
		CodeNotAvailable:        {i18n.ES: "Los pagos locales no están disponibles en tu país.", i18n.EN: "Local payments are not available in your country.", i18n.PT: "Os pagamentos locais não estão disponíveis no seu país."},
		CodeGlobalNotAvailable:  {i18n.ES: "Los pagos globales no están disponibles en tu plan. Elige un plan que los incluya.", i18n.EN: "Global payments are not available on your plan. Choose a plan that includes them.", i18n.PT: "Os pagamentos globais não estão disponíveis no seu plano. Escolha um plano que os inclua."},
		CodeLimitReached:        {i18n.ES: "Ya tienes un procesador de este tipo. Edítalo o descártalo antes de agregar otro.", i18n.EN: "You already have a processor of this kind. Edit or discard it before adding another.", i18n.PT: "Você já tem um processador deste tipo. Edite ou descarte-o antes de adicionar outro."},
		CodeBankAccountRequired: {i18n.ES: "Agrega primero la cuenta bancaria a la que transferimos lo recaudado.", i18n.EN: "First add the bank account we pay out to.", i18n.PT: "Adicione primeiro a conta bancária para a qual transferimos o arrecadado."},
		CodeBankAccountNotLocal: {i18n.ES: "La cuenta bancaria debe estar en la moneda de tu país.", i18n.EN: "The bank account must be in your country's currency.", i18n.PT: "A conta bancária deve estar na moeda do seu país."},
		CodeRulesRequired:       {i18n.ES: "Elige al menos una regla.", i18n.EN: "Choose at least one rule.", i18n.PT: "Escolha pelo menos uma regra."},
		CodeRetryGlobalOnly:     {i18n.ES: "Solo el procesador global reintenta cobros rechazados.", i18n.EN: "Only the global processor retries declined charges.", i18n.PT: "Somente o processador global tenta de novo cobranças recusadas."},
		CodeCampaignUnknown:     {i18n.ES: "Elige campañas de tu organización (las promocionadas no se pueden elegir).", i18n.EN: "Choose campaigns of your organisation (promoted ones cannot be chosen).", i18n.PT: "Escolha campanhas da sua organização (as promovidas não podem ser escolhidas)."},
		CodeTrackInvalid:        {i18n.ES: "Evento desconocido.", i18n.EN: "Unknown event.", i18n.PT: "Evento desconhecido."},
	})
}
