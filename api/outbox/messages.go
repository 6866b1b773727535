package outbox

import "github.com/aporta/aporta/api/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		"recipient_required": {i18n.ES: "Falta el destinatario.", i18n.EN: "The recipient is missing.", i18n.PT: "Falta o destinatário."},
		"delivery_failed":    {i18n.ES: "No pudimos enviar el mensaje. Intenta de nuevo en unos minutos.", i18n.EN: "We could not send the message. Please try again in a few minutes.", i18n.PT: "Não conseguimos enviar a mensagem. Tente novamente em alguns minutos."},
	})
}
