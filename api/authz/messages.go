package authz

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		"account.email_not_verified": {
			i18n.ES: "Primero verifica tu e-mail con el código que te enviamos.",
			i18n.EN: "Verify your e-mail first with the code we sent you.",
			i18n.PT: "Primeiro verifique seu e-mail com o código que enviamos.",
		},
	})
}
