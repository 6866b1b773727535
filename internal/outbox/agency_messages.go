package outbox

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		// The welcome e-mail (internal/outbox/templates/agency_welcome.tmpl): %s agency, %s organisation, %s recovery page, %s sign-in page.
		"agency_welcome_subject": {i18n.ES: "Te sumaron al equipo %s en Aporta", i18n.EN: "You have been added to the team %s on Aporta", i18n.PT: "Você foi adicionado à equipe %s no Aporta"},
		"agency_welcome_body": {
			i18n.ES: "Hola:\n\nTe sumaron al equipo %s, que capta donantes para %s en Aporta.\n\nSi todavía no tienes contraseña, elígela aquí con el código que te enviaremos a este e-mail:\n%s\n\nLuego inicia sesión en:\n%s\n\nSi no esperabas este mensaje, ignóralo.\n",
			i18n.EN: "Hello,\n\nYou have been added to the team %s, which signs donors up for %s on Aporta.\n\nIf you have no password yet, choose it here with the code we will send to this e-mail:\n%s\n\nThen sign in at:\n%s\n\nIf you did not expect this message, ignore it.\n",
			i18n.PT: "Olá,\n\nVocê foi adicionado à equipe %s, que capta doadores para %s no Aporta.\n\nSe ainda não tem senha, escolha-a aqui com o código que enviaremos a este e-mail:\n%s\n\nDepois entre em:\n%s\n\nSe não esperava esta mensagem, ignore-a.\n",
		},
		"agency_welcome_button": {i18n.ES: "Elegir mi contraseña", i18n.EN: "Choose my password", i18n.PT: "Escolher minha senha"},
	})
}
