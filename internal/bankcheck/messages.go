package bankcheck

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		CodeFormat: {
			i18n.ES: "El número de cuenta no tiene el formato de este país (revisa la cantidad de dígitos).",
			i18n.EN: "The account number is not in this country's format (check the number of digits).",
			i18n.PT: "O número da conta não está no formato deste país (confira a quantidade de dígitos).",
		},
		CodeCheckDigit: {
			i18n.ES: "El número de cuenta no es válido: un dígito verificador no coincide. Revisa que esté bien copiado.",
			i18n.EN: "The account number is not valid: a check digit does not match. Check that it was copied correctly.",
			i18n.PT: "O número da conta não é válido: um dígito verificador não confere. Confira se foi copiado corretamente.",
		},
		CodeBankMismatch: {
			i18n.ES: "El número de cuenta pertenece a otro banco que el elegido.",
			i18n.EN: "The account number belongs to a different bank than the one chosen.",
			i18n.PT: "O número da conta pertence a outro banco, não ao escolhido.",
		},
		CodeBranchFormat: {
			i18n.ES: "La agencia tiene 4 dígitos, con un dígito verificador opcional.",
			i18n.EN: "The branch has 4 digits, with an optional check digit.",
			i18n.PT: "A agência tem 4 dígitos, com um dígito verificador opcional.",
		},
	})
}
