package payouts

import "github.com/aporta/aporta/internal/i18n"

// Why a payout waits or failed: the organisation sees these on its payouts page.
const (
	// CodeNoBankAccount: the organisation has no active bank account.
	CodeNoBankAccount = "payouts.no_bank_account"
	// CodeBankAccountCurrency: the active bank account is in another currency than the payout's.
	CodeBankAccountCurrency = "payouts.bank_account_currency"
	// CodeNoTaxID: the organisation's tax id, which the bank transfer names, is missing.
	CodeNoTaxID = "payouts.no_tax_id"
	// CodeRefused: the processor refused the payout; its charges go to the next one.
	CodeRefused = "payouts.refused"
	// CodeProcessorRemoved: the processor the money was collected through was deleted meanwhile.
	CodeProcessorRemoved = "payouts.processor_removed"
)

func init() {
	i18n.Register(i18n.Catalog{
		CodeNoBankAccount: {i18n.ES: "Agrega una cuenta bancaria activa para recibir este pago.",
			i18n.EN: "Add an active bank account to receive this payout.", i18n.PT: "Adicione uma conta bancária ativa para receber este pagamento."},
		CodeBankAccountCurrency: {i18n.ES: "La cuenta bancaria activa está en otra moneda que este pago.",
			i18n.EN: "The active bank account is in another currency than this payout.", i18n.PT: "A conta bancária ativa está em outra moeda que este pagamento."},
		CodeNoTaxID: {i18n.ES: "Completa la identificación fiscal de la organización para recibir este pago.",
			i18n.EN: "Complete the organisation's tax id to receive this payout.", i18n.PT: "Complete a identificação fiscal da organização para receber este pagamento."},
		CodeRefused: {i18n.ES: "El procesador rechazó el pago; sus cobros pasan al próximo pago.",
			i18n.EN: "The processor refused the payout; its charges move to the next payout.", i18n.PT: "O processador recusou o pagamento; as cobranças passam para o próximo pagamento."},
		CodeProcessorRemoved: {i18n.ES: "El procesador de estos cobros fue eliminado.",
			i18n.EN: "The processor of these charges was removed.", i18n.PT: "O processador destas cobranças foi removido."},
	})
}
