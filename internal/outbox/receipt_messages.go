package outbox

import "github.com/aporta/aporta/internal/i18n"

// The receipt e-mail (donation_receipt, sent by internal/receipt).
func init() {
	i18n.Register(i18n.Catalog{
		// donation_receipt: %s name, %s amount, %s campaign, %s number; %s organisation.
		"receipt.email.subject": {i18n.ES: "Tu recibo de donación a %s", i18n.EN: "Your donation receipt from %s", i18n.PT: "Seu recibo de doação para %s"},
		"receipt.email.body": {
			i18n.ES: "Hola, %s:\n\nGracias por tu donación de %s a «%s». Tu recibo N.º %s está listo para descargar.",
			i18n.EN: "Hello %s,\n\nThank you for your donation of %s to “%s”. Your receipt No. %s is ready to download.",
			i18n.PT: "Olá, %s:\n\nObrigado pela sua doação de %s para «%s». Seu recibo N.º %s está pronto para baixar."},
		"receipt.email.download": {i18n.ES: "Descargar el recibo (PDF)", i18n.EN: "Download the receipt (PDF)", i18n.PT: "Baixar o recibo (PDF)"},
		"receipt.email.later": {
			i18n.ES: "El enlace sirve durante un año; después encontrarás tus recibos en tus donaciones: %s",
			i18n.EN: "The link works for a year; after that you will find your receipts with your donations: %s",
			i18n.PT: "O link funciona por um ano; depois você encontrará seus recibos nas suas doações: %s"},
	})
}
