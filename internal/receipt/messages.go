package receipt

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		"receipt.title":        {i18n.ES: "Recibo de donación N.º %s", i18n.EN: "Donation receipt No. %s", i18n.PT: "Recibo de doação N.º %s"},
		"receipt.number":       {i18n.ES: "Número de recibo", i18n.EN: "Receipt number", i18n.PT: "Número do recibo"},
		"receipt.date":         {i18n.ES: "Fecha del cobro", i18n.EN: "Charge date", i18n.PT: "Data da cobrança"},
		"receipt.annulled":     {i18n.ES: "ANULADO: cobro devuelto el", i18n.EN: "VOID: charge given back on", i18n.PT: "ANULADO: cobrança devolvida em"},
		"receipt.organization": {i18n.ES: "Organización", i18n.EN: "Organisation", i18n.PT: "Organização"},
		"receipt.legal_name":   {i18n.ES: "Razón social", i18n.EN: "Legal name", i18n.PT: "Razão social"},
		"receipt.tax_id":       {i18n.ES: "Identificación fiscal", i18n.EN: "Tax id", i18n.PT: "Identificação fiscal"},
		"receipt.address":      {i18n.ES: "Domicilio", i18n.EN: "Address", i18n.PT: "Endereço"},
		"receipt.donor":        {i18n.ES: "Donante", i18n.EN: "Donor", i18n.PT: "Doador"},
		"receipt.donor_name":   {i18n.ES: "Nombre", i18n.EN: "Name", i18n.PT: "Nome"},
		"receipt.email":        {i18n.ES: "E-mail", i18n.EN: "E-mail", i18n.PT: "E-mail"},
		"receipt.donation":     {i18n.ES: "Donación", i18n.EN: "Donation", i18n.PT: "Doação"},
		"receipt.campaign":     {i18n.ES: "Campaña", i18n.EN: "Campaign", i18n.PT: "Campanha"},
		"receipt.amount":       {i18n.ES: "Importe", i18n.EN: "Amount", i18n.PT: "Valor"},
		"receipt.amount_words": {i18n.ES: "Son", i18n.EN: "In words", i18n.PT: "Por extenso"},
		// %s organisation, %s donor, %s amount in words, %s in figures, %s date.
		"receipt.statement": {
			i18n.ES: "%s recibió de %s la suma de %s (%s) el %s, en concepto de donación.",
			i18n.EN: "%s received from %s the sum of %s (%s) on %s, as a donation.",
			i18n.PT: "%s recebeu de %s a quantia de %s (%s) em %s, a título de doação."},
		"receipt.summary_title":    {i18n.ES: "Resumen anual de donaciones %d", i18n.EN: "Yearly donation summary %d", i18n.PT: "Resumo anual de doações %d"},
		"receipt.year":             {i18n.ES: "Año", i18n.EN: "Year", i18n.PT: "Ano"},
		"receipt.summary_receipts": {i18n.ES: "Donaciones del año", i18n.EN: "Donations of the year", i18n.PT: "Doações do ano"},
		"receipt.summary_line":     {i18n.ES: "Recibo N.º %s", i18n.EN: "Receipt No. %s", i18n.PT: "Recibo N.º %s"},
		"receipt.summary_total":    {i18n.ES: "Total del año", i18n.EN: "Total for the year", i18n.PT: "Total do ano"},
		"receipt.summary_note": {
			i18n.ES: "%d donaciones cobradas en %d. Cada una tiene su recibo con el número indicado.",
			i18n.EN: "%d donations charged in %d. Each has its own receipt with the number shown.",
			i18n.PT: "%d doações cobradas em %d. Cada uma tem seu recibo com o número indicado."},
		// Errors of the receipt endpoints.
		"receipt.not_found":  {i18n.ES: "No encontramos ese recibo.", i18n.EN: "We could not find that receipt.", i18n.PT: "Não encontramos esse recibo."},
		"receipt.year_empty": {i18n.ES: "No hay donaciones cobradas en ese año.", i18n.EN: "There are no donations charged in that year.", i18n.PT: "Não há doações cobradas nesse ano."},
		"receipt.year_invalid": {i18n.ES: "Elige un año entre 2000 y el actual.", i18n.EN: "Choose a year between 2000 and this one.", i18n.PT: "Escolha um ano entre 2000 e o atual.",
			i18n.ESAR: "Elegí un año entre 2000 y el actual."},
	})
}
