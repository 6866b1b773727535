package donation

import "github.com/aporta/aporta/internal/i18n"

func init() {
	c := i18n.Catalog{
		"donation.discarded":                  {i18n.ES: "Esta donación fue dada de baja y no admite cambios.", i18n.EN: "This donation was discarded and cannot be changed.", i18n.PT: "Esta doação foi cancelada e não admite alterações."},
		"donation.not_monthly":                {i18n.ES: "Esta acción solo aplica a donaciones mensuales activas o pausadas.", i18n.EN: "This action only applies to active or paused monthly donations.", i18n.PT: "Esta ação só se aplica a doações mensais ativas ou pausadas."},
		"donation.not_collecting":             {i18n.ES: "El primer cobro de esta donación no se confirmó: no admite cambios.", i18n.EN: "This donation's first charge was not confirmed: it cannot be changed.", i18n.PT: "A primeira cobrança desta doação não foi confirmada: ela não admite alterações."},
		"donation.not_paused":                 {i18n.ES: "La donación no está pausada.", i18n.EN: "The donation is not paused.", i18n.PT: "A doação não está pausada."},
		"donation.not_active":                 {i18n.ES: "La donación no está activa.", i18n.EN: "The donation is not active.", i18n.PT: "A doação não está ativa."},
		"donation.charge_in_progress":         {i18n.ES: "Ya hay un cobro en curso para esta donación; espera a que termine.", i18n.EN: "A charge is already in progress for this donation; wait for it to finish.", i18n.PT: "Já há uma cobrança em andamento para esta doação; aguarde terminar."},
		"donation.collect_not_due":            {i18n.ES: "Solo se puede cobrar ahora el período del mes en curso o uno vencido que no esté pagado; el próximo se cobrará en su fecha.", i18n.EN: "Only this month's period or an overdue unpaid one can be collected now; the next one is collected on its date.", i18n.PT: "Só é possível cobrar agora o período do mês corrente ou um vencido que não esteja pago; o próximo será cobrado na sua data."},
		"donation.pause_reason_invalid":       {i18n.ES: "Elige un motivo de pausa válido.", i18n.EN: "Choose a valid pause reason.", i18n.PT: "Escolha um motivo de pausa válido."},
		"donation.change_invalid":             {i18n.ES: "El cambio no es válido para esta donación.", i18n.EN: "The change is not valid for this donation.", i18n.PT: "A alteração não é válida para esta doação."},
		"donation.workflow_closed":            {i18n.ES: "El cobro de esta donación ya no está en curso: no admite cambios.", i18n.EN: "This donation's collection is no longer running: it cannot be changed.", i18n.PT: "A cobrança desta doação não está mais em andamento: ela não admite alterações."},
		"donation.change_failed":              {i18n.ES: "No pudimos guardar el cambio, inténtalo de nuevo en unos minutos.", i18n.EN: "We could not save the change, try again in a few minutes.", i18n.PT: "Não conseguimos salvar a alteração, tente novamente em alguns minutos."},
		"donation.collect_day_invalid":        {i18n.ES: "Elige un día de cobro entre 1 y 31, o el último día del mes.", i18n.EN: "Choose a collect day from 1 to 31, or the last day of the month.", i18n.PT: "Escolha um dia de cobrança entre 1 e 31, ou o último dia do mês."},
		"donation.phone_invalid":              {i18n.ES: "Ingresa un teléfono válido.", i18n.EN: "Enter a valid phone number.", i18n.PT: "Informe um telefone válido."},
		"donation.donor_email_taken":          {i18n.ES: "Otro donante ya usa ese correo electrónico.", i18n.EN: "Another donor already uses that e-mail address.", i18n.PT: "Outro doador já usa esse e-mail."},
		"donation.upgrade_exists":             {i18n.ES: "La donación ya tiene un incremento periódico: edítalo o elimínalo.", i18n.EN: "The donation already has a periodic increase: edit or remove it.", i18n.PT: "A doação já tem um aumento periódico: edite-o ou remova-o."},
		"donation.upgrade_percentage_invalid": {i18n.ES: "Ingresa un porcentaje válido (hasta dos decimales).", i18n.EN: "Enter a valid percentage (up to two decimals).", i18n.PT: "Informe uma porcentagem válida (até duas casas decimais)."},
		"donation.upgrade_percentage_range":   {i18n.ES: "El monto debe ser un valor entre %s y %s", i18n.EN: "The amount must be a value between %s and %s", i18n.PT: "O valor deve estar entre %s e %s"},
		"donation.upgrade_period_invalid":     {i18n.ES: "El período debe ser 1, 2, 3, 4 o 6 meses, o 1 año.", i18n.EN: "The period must be 1, 2, 3, 4 or 6 months, or 1 year.", i18n.PT: "O período deve ser 1, 2, 3, 4 ou 6 meses, ou 1 ano."},
		"donation.per_page_invalid":           {i18n.ES: "Elige entre 1 y 100 filas por página.", i18n.EN: "Choose between 1 and 100 rows per page.", i18n.PT: "Escolha entre 1 e 100 linhas por página."},
		"donation.date_invalid":               {i18n.ES: "Ingresa una fecha válida (AAAA-MM-DD).", i18n.EN: "Enter a valid date (YYYY-MM-DD).", i18n.PT: "Informe uma data válida (AAAA-MM-DD)."},
		"donation.period_invalid":             {i18n.ES: "Ingresa un período válido (AAAA-MM).", i18n.EN: "Enter a valid period (YYYY-MM).", i18n.PT: "Informe um período válido (AAAA-MM)."},
		"donation.period_order":               {i18n.ES: "El período final debe ser posterior al inicial.", i18n.EN: "The end period must come after the start.", i18n.PT: "O período final deve ser posterior ao inicial."},
		"donation.period_too_long":            {i18n.ES: "El rango puede abarcar hasta 5 años.", i18n.EN: "The range may span up to 5 years.", i18n.PT: "O intervalo pode abranger até 5 anos."},
		"donation.donor_not_discarded":        {i18n.ES: "El donante no está dado de baja.", i18n.EN: "The donor is not discarded.", i18n.PT: "O doador não está cancelado."},
		"discard_reason.donor_request":        {i18n.ES: "Pedido del donante", i18n.EN: "Donor's request", i18n.PT: "Pedido do doador"},
		"discard_reason.financial_reasons":    {i18n.ES: "Motivos económicos", i18n.EN: "Financial reasons", i18n.PT: "Motivos financeiros"},
		"discard_reason.payment_problems":     {i18n.ES: "Problemas con el pago", i18n.EN: "Payment problems", i18n.PT: "Problemas com o pagamento"},
		"discard_reason.duplicate":            {i18n.ES: "Donación duplicada", i18n.EN: "Duplicate donation", i18n.PT: "Doação duplicada"},
		"discard_reason.deceased":             {i18n.ES: "Fallecimiento", i18n.EN: "Deceased", i18n.PT: "Falecimento"},
		"discard_reason.unreachable":          {i18n.ES: "No se pudo contactar", i18n.EN: "Could not be reached", i18n.PT: "Não foi possível contatar"},
		"discard_reason.other":                {i18n.ES: "Otro motivo", i18n.EN: "Other reason", i18n.PT: "Outro motivo"},
	}
	paused := map[string][3]string{
		"all_not_approved":                {"Ningún cobro aprobado", "No charge approved", "Nenhuma cobrança aprovada"},
		"by_api":                          {"Pausada por API", "Paused through the API", "Pausada pela API"},
		"by_org":                          {"Pausada por la organización", "Paused by the organisation", "Pausada pela organização"},
		"cc_expired":                      {"Tarjeta vencida", "Card expired", "Cartão vencido"},
		"cc_invalid_number":               {"Número de tarjeta inválido", "Invalid card number", "Número de cartão inválido"},
		"cc_missing_security_code":        {"Falta el código de seguridad", "Security code missing", "Falta o código de segurança"},
		"donor_request_stop_debit":        {"El donante pidió detener el débito", "Donor asked to stop the debit", "O doador pediu para parar o débito"},
		"gateway_disconnected":            {"Pasarela de pagos desconectada", "Payment gateway disconnected", "Gateway de pagamento desconectado"},
		"invalid_amount":                  {"Monto inválido", "Invalid amount", "Valor inválido"},
		"last_transaction_card_cancelled": {"Tarjeta cancelada", "Card cancelled", "Cartão cancelado"},
		"last_transaction_charge_back":    {"Contracargo", "Charge back", "Estorno (chargeback)"},
		"last_transaction_high_risk":      {"Pago de alto riesgo", "High-risk payment", "Pagamento de alto risco"},
		"last_transaction_stolen_issue":   {"Tarjeta denunciada como robada", "Card reported stolen", "Cartão denunciado como roubado"},
		"last_transactions_not_approved":  {"Últimos cobros no aprobados", "Last charges not approved", "Últimas cobranças não aprovadas"},
		"last_x_months_not_approved":      {"Varios meses sin cobro aprobado", "Several months without an approved charge", "Vários meses sem cobrança aprovada"},
		"payment_method_invalid":          {"Medio de pago inválido", "Invalid payment method", "Meio de pagamento inválido"},
		"payment_method_missing":          {"Falta el medio de pago", "Payment method missing", "Falta o meio de pagamento"},
		"payment_method_not_supported":    {"Medio de pago no admitido", "Payment method not supported", "Meio de pagamento não suportado"},
		"unknown":                         {"Motivo desconocido", "Unknown reason", "Motivo desconhecido"},
	}
	for k, v := range paused {
		c["paused_reason."+k] = map[i18n.Lang]string{i18n.ES: v[0], i18n.EN: v[1], i18n.PT: v[2]}
	}
	i18n.Register(c)
}
