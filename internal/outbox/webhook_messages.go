package outbox

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		// An endpoint that kept failing was disabled (templates/webhook_endpoint_disabled.tmpl):
		// %[1]s organisation, %[2]s endpoint URL, %[3]d hours of retries, %[4]s settings page.
		"webhook.email.disabled.subject": {
			i18n.ES: "%[1]s: desactivamos un webhook que no responde",
			i18n.EN: "%[1]s: we disabled a webhook that does not answer",
			i18n.PT: "%[1]s: desativamos um webhook que não responde",
		},
		"webhook.email.disabled.body": {
			i18n.ES:   "El endpoint %[2]s de %[1]s no aceptó ningún evento durante %[3]d horas de reintentos, así que lo desactivamos y no le enviaremos más eventos. Cuando vuelva a funcionar, actívalo y reenvía lo que falte desde %[4]s",
			i18n.EN:   "The endpoint %[2]s of %[1]s accepted no event during %[3]d hours of retries, so we disabled it and will send it no more events. Once it works again, enable it and resend what is missing from %[4]s",
			i18n.ESAR: "El endpoint %[2]s de %[1]s no aceptó ningún evento durante %[3]d horas de reintentos, así que lo desactivamos y no le enviaremos más eventos. Cuando vuelva a funcionar, activalo y reenviá lo que falte desde %[4]s",
			i18n.PT:   "O endpoint %[2]s de %[1]s não aceitou nenhum evento durante %[3]d horas de novas tentativas, então o desativamos e não enviaremos mais eventos a ele. Quando voltar a funcionar, ative-o e reenvie o que faltar em %[4]s",
		},
		"webhook.email.review": {i18n.ES: "Revisar webhooks", i18n.EN: "Review webhooks", i18n.PT: "Revisar webhooks"},
	})
}
