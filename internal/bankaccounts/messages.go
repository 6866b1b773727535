package bankaccounts

import "github.com/aporta/aporta/internal/i18n"

// Field error codes of the bank account form.
const (
	CodeRequired           = "bank_account.required"
	CodeTooLong            = "bank_account.too_long"
	CodeEmailInvalid       = "bank_account.email_invalid"
	CodePhoneInvalid       = "bank_account.phone_invalid"
	CodeBankUnknown        = "bank_account.bank_unknown"
	CodeAccountTypeInvalid = "bank_account.account_type_invalid"
)

func init() {
	i18n.Register(i18n.Catalog{
		CodeRequired:           {i18n.ES: "Este campo es obligatorio.", i18n.EN: "This field is required.", i18n.PT: "Este campo é obrigatório."},
		CodeTooLong:            {i18n.ES: "El texto es demasiado largo.", i18n.EN: "The text is too long.", i18n.PT: "O texto é longo demais."},
		CodeEmailInvalid:       {i18n.ES: "El e-mail no es válido.", i18n.EN: "The e-mail is not valid.", i18n.PT: "O e-mail não é válido."},
		CodePhoneInvalid:       {i18n.ES: "El teléfono no es válido.", i18n.EN: "The phone number is not valid.", i18n.PT: "O telefone não é válido."},
		CodeBankUnknown:        {i18n.ES: "Elige un banco de la lista.", i18n.EN: "Choose a bank from the list.", i18n.PT: "Escolha um banco da lista."},
		CodeAccountTypeInvalid: {i18n.ES: "Elige un tipo de cuenta que ofrezca este banco.", i18n.EN: "Choose an account type this bank offers.", i18n.PT: "Escolha um tipo de conta que este banco oferece."},
	})
}
