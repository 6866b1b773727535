package outbox

import "github.com/aporta/aporta/internal/i18n"

// The donor portal's e-mails: donor_portal_link, donor_portal_change, donation_card_declined, and
// the portal line of donation_thanks.
func init() {
	i18n.Register(i18n.Catalog{
		"portal.email.thanks_manage": {
			i18n.ES: "Para ver o cambiar tu donación (tarjeta, monto, día de cobro, pausa), pide un enlace de acceso aquí: %s",
			i18n.EN: "To see or change your donation (card, amount, collect day, pause), ask for an access link here: %s",
			i18n.PT: "Para ver ou alterar sua doação (cartão, valor, dia de cobrança, pausa), peça um link de acesso aqui: %s"},
		// donor_portal_link: %s name, %s organisation, %s link, %d minutes.
		"portal.email.link.subject": {i18n.ES: "Tu acceso a tus donaciones a %s", i18n.EN: "Your access to your donations to %s", i18n.PT: "Seu acesso às suas doações para %s"},
		"portal.email.link.body": {
			i18n.ES: "Hola, %s:\n\nPediste acceso a tus donaciones a %s. Abre este enlace para verlas y cambiarlas:\n%s\n\nEl enlace vence en %d minutos y sirve una sola vez. Si no lo pediste, ignora este mensaje.\n",
			i18n.EN: "Hello %s,\n\nYou asked for access to your donations to %s. Open this link to see and change them:\n%s\n\nThe link expires in %d minutes and works once. If you did not ask for it, ignore this message.\n",
			i18n.PT: "Olá, %s:\n\nVocê pediu acesso às suas doações para %s. Abra este link para vê-las e alterá-las:\n%s\n\nO link vence em %d minutos e funciona uma única vez. Se você não pediu, ignore esta mensagem.\n"},
		"portal.email.link.greeting": {
			i18n.ES: "Hola, %s:\n\nPediste acceso a tus donaciones a %s. Ábrelas con este botón:",
			i18n.EN: "Hello %s,\n\nYou asked for access to your donations to %s. Open them with this button:",
			i18n.PT: "Olá, %s:\n\nVocê pediu acesso às suas doações para %s. Abra-as com este botão:"},
		"portal.email.link.expiry": {
			i18n.ES: "El enlace vence en %d minutos y sirve una sola vez. Si no lo pediste, ignora este mensaje.",
			i18n.EN: "The link expires in %d minutes and works once. If you did not ask for it, ignore this message.",
			i18n.PT: "O link vence em %d minutos e funciona uma única vez. Se você não pediu, ignore esta mensagem."},
		"portal.email.open":   {i18n.ES: "Ver mis donaciones", i18n.EN: "See my donations", i18n.PT: "Ver minhas doações"},
		"portal.email.manage": {i18n.ES: "Gestionar mi donación", i18n.EN: "Manage my donation", i18n.PT: "Gerenciar minha doação"},
		// donor_portal_change: %s name, %s campaign, %s what changed, %s portal page.
		"portal.email.change.subject": {i18n.ES: "Cambiaste tu donación a %s", i18n.EN: "You changed your donation to %s", i18n.PT: "Você alterou sua doação para %s"},
		"portal.email.change.body": {
			i18n.ES: "Hola, %s:\n\nConfirmamos el cambio en tu donación a «%s»: %s.\n\nSi no fuiste tú, pide un enlace nuevo y revisa tu donación: %s\n",
			i18n.EN: "Hello %s,\n\nWe confirm the change to your donation to “%s”: %s.\n\nIf it was not you, ask for a new link and check your donation: %s\n",
			i18n.PT: "Olá, %s:\n\nConfirmamos a alteração na sua doação para «%s»: %s.\n\nSe não foi você, peça um novo link e revise sua doação: %s\n"},
		// donation_card_declined: %s name, %s amount, %s campaign, %s reason; %s link.
		"portal.email.declined.subject": {i18n.ES: "No pudimos cobrar tu donación a %s", i18n.EN: "We could not charge your donation to %s", i18n.PT: "Não conseguimos cobrar sua doação para %s"},
		"portal.email.declined.body": {
			i18n.ES: "Hola, %s:\n\nNo pudimos cobrar tu donación mensual de %s a «%s». Motivo: %s.",
			i18n.EN: "Hello %s,\n\nWe could not charge your monthly donation of %s to “%s”. Reason: %s.",
			i18n.PT: "Olá, %s:\n\nNão conseguimos cobrar sua doação mensal de %s para «%s». Motivo: %s."},
		"portal.email.declined.final": {
			i18n.ES: "Lo intentaremos una última vez. Si actualizas tu tarjeta ahora, la cobramos enseguida con la nueva.",
			i18n.EN: "We will try one last time. If you update your card now, we charge the new one right away.",
			i18n.PT: "Tentaremos uma última vez. Se você atualizar seu cartão agora, cobramos o novo em seguida."},
		"portal.email.declined.paused": {
			i18n.ES: "Tu donación quedó en pausa. Si actualizas tu tarjeta, se reactiva y la cobramos enseguida.",
			i18n.EN: "Your donation is paused. If you update your card, it becomes active again and we charge it right away.",
			i18n.PT: "Sua doação ficou em pausa. Se você atualizar seu cartão, ela é reativada e cobramos em seguida."},
		"portal.email.declined.action": {
			i18n.ES: "Actualiza tu tarjeta aquí (el enlace sirve una vez, durante 7 días):\n%s",
			i18n.EN: "Update your card here (the link works once, for 7 days):\n%s",
			i18n.PT: "Atualize seu cartão aqui (o link funciona uma vez, durante 7 dias):\n%s"},
		"portal.email.update_card": {i18n.ES: "Actualizar mi tarjeta", i18n.EN: "Update my card", i18n.PT: "Atualizar meu cartão"},
		"portal.email.link_note": {
			i18n.ES: "El enlace sirve una vez, durante 7 días.", i18n.EN: "The link works once, for 7 days.", i18n.PT: "O link funciona uma vez, durante 7 dias."},
	})
}
