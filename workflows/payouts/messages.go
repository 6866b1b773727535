package payouts

import "github.com/aporta/aporta/internal/i18n"

// Why a payout waits or failed: the organisation sees these on its payouts page (web/lang has them too).
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
		CodeNoBankAccount: {i18n.ES: "Falta una cuenta bancaria activa para recibir esta liquidación.",
			i18n.EN: "An active bank account is needed to receive this payout.", i18n.PT: "Falta uma conta bancária ativa para receber este repasse."},
		CodeBankAccountCurrency: {i18n.ES: "La cuenta bancaria activa está en otra moneda que esta liquidación.",
			i18n.EN: "The active bank account is in another currency than this payout.", i18n.PT: "A conta bancária ativa está em outra moeda que este repasse."},
		CodeNoTaxID: {i18n.ES: "Falta la identificación fiscal de la organización para recibir esta liquidación.",
			i18n.EN: "The organisation's tax id is needed to receive this payout.", i18n.PT: "Falta a identificação fiscal da organização para receber este repasse."},
		CodeRefused: {i18n.ES: "El procesador rechazó la liquidación; sus cobros pasan a la siguiente.",
			i18n.EN: "The processor refused the payout; its charges move to the next one.", i18n.PT: "O processador recusou o repasse; suas cobranças passam para o próximo."},
		CodeProcessorRemoved: {i18n.ES: "El procesador de estos cobros fue eliminado.",
			i18n.EN: "The processor of these charges was removed.", i18n.PT: "O processador destas cobranças foi removido."},
	})
}
