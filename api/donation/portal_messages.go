package donation

import "github.com/aporta/aporta/internal/i18n"

// The donor portal's errors and the changes its confirmation e-mail names.
func init() {
	i18n.Register(i18n.Catalog{
		"portal.link_invalid": {
			i18n.ES: "El enlace no es válido, ya se usó o venció. Pide uno nuevo.",
			i18n.EN: "The link is not valid, was already used or expired. Ask for a new one.",
			i18n.PT: "O link não é válido, já foi usado ou venceu. Peça um novo."},
		"portal.session_expired": {
			i18n.ES: "Tu sesión terminó. Pide un enlace nuevo para seguir.",
			i18n.EN: "Your session ended. Ask for a new link to go on.",
			i18n.PT: "Sua sessão terminou. Peça um novo link para continuar."},
		"portal.pause_months_invalid": {
			i18n.ES: "La pausa dura de 1 a 3 meses.", i18n.EN: "A pause lasts 1 to 3 months.", i18n.PT: "A pausa dura de 1 a 3 meses."},
		"portal.cancel_reason_invalid": {
			i18n.ES: "Elige un motivo de la lista.", i18n.EN: "Choose a reason from the list.", i18n.PT: "Escolha um motivo da lista."},
		"portal.change.amount":      {i18n.ES: "nuevo monto %s", i18n.EN: "new amount %s", i18n.PT: "novo valor %s"},
		"portal.change.collect_day": {i18n.ES: "nuevo día de cobro: %s", i18n.EN: "new collect day: %s", i18n.PT: "novo dia de cobrança: %s"},
		"portal.change.last_day":    {i18n.ES: "el último día del mes", i18n.EN: "the last day of the month", i18n.PT: "o último dia do mês"},
		"portal.change.card":        {i18n.ES: "nueva tarjeta %s terminada en %s", i18n.EN: "new card %s ending in %s", i18n.PT: "novo cartão %s terminado em %s"},
		"portal.change.pause":       {i18n.ES: "pausada hasta el %s, luego se reanuda sola", i18n.EN: "paused until %s, then it resumes on its own", i18n.PT: "pausada até %s, depois é retomada sozinha"},
		"portal.change.resume":      {i18n.ES: "reanudada", i18n.EN: "resumed", i18n.PT: "retomada"},
		"portal.change.cancel":      {i18n.ES: "cancelada", i18n.EN: "cancelled", i18n.PT: "cancelada"},
	})
}
