package agency

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		"agency.status_invalid":        {i18n.ES: "El estado debe ser active, discarded o all.", i18n.EN: "The status must be active, discarded or all.", i18n.PT: "O status deve ser active, discarded ou all."},
		"agency.name_required":         {i18n.ES: "Ingresa el nombre del equipo.", i18n.EN: "Enter the team's name.", i18n.PT: "Informe o nome da equipe."},
		"agency.name_min_length":       {i18n.ES: "El nombre debe tener al menos 3 caracteres.", i18n.EN: "The name must have at least 3 characters.", i18n.PT: "O nome deve ter pelo menos 3 caracteres."},
		"agency.name_too_long":         {i18n.ES: "El nombre es demasiado largo.", i18n.EN: "The name is too long.", i18n.PT: "O nome é longo demais."},
		"agency.mode_invalid":          {i18n.ES: "El modo debe ser prueba (sandbox) o real (live).", i18n.EN: "The mode must be sandbox or live.", i18n.PT: "O modo deve ser teste (sandbox) ou real (live)."},
		"agency.sync_delay_invalid":    {i18n.ES: "Elige una demora de sincronización de la lista.", i18n.EN: "Choose a sync delay from the list.", i18n.PT: "Escolha um atraso de sincronização da lista."},
		"agency.discarded":             {i18n.ES: "Este equipo fue dado de baja.", i18n.EN: "This team has been discarded.", i18n.PT: "Esta equipe foi desativada."},
		"agency.amounts_too_many":      {i18n.ES: "Ofrece como máximo 8 montos.", i18n.EN: "Offer at most 8 amounts.", i18n.PT: "Ofereça no máximo 8 valores."},
		"agency.amounts_required":      {i18n.ES: "Ofrece al menos un monto o permite otro monto.", i18n.EN: "Offer at least one amount or allow another amount.", i18n.PT: "Ofereça pelo menos um valor ou permita outro valor."},
		"agency.amount_invalid":        {i18n.ES: "El monto no es válido.", i18n.EN: "The amount is not valid.", i18n.PT: "O valor não é válido."},
		"agency.email_required":        {i18n.ES: "Ingresa el e-mail de la persona.", i18n.EN: "Enter the person's e-mail.", i18n.PT: "Informe o e-mail da pessoa."},
		"agency.email_invalid":         {i18n.ES: "El e-mail no es válido.", i18n.EN: "The e-mail is not valid.", i18n.PT: "O e-mail não é válido."},
		"agency.first_name_required":   {i18n.ES: "Ingresa el nombre.", i18n.EN: "Enter the first name.", i18n.PT: "Informe o nome."},
		"agency.first_name_min_length": {i18n.ES: "El nombre debe tener al menos 3 caracteres.", i18n.EN: "The first name must have at least 3 characters.", i18n.PT: "O nome deve ter pelo menos 3 caracteres."},
		"agency.last_name_required":    {i18n.ES: "Ingresa el apellido.", i18n.EN: "Enter the last name.", i18n.PT: "Informe o sobrenome."},
		"agency.last_name_min_length":  {i18n.ES: "El apellido debe tener al menos 3 caracteres.", i18n.EN: "The last name must have at least 3 characters.", i18n.PT: "O sobrenome deve ter pelo menos 3 caracteres."},
		"agency.role_required":         {i18n.ES: "Elige un rol.", i18n.EN: "Choose a role.", i18n.PT: "Escolha uma função."},
		"agency.role_invalid":          {i18n.ES: "El rol debe ser gerente, operador o supervisor.", i18n.EN: "The role must be manager, operator or supervisor.", i18n.PT: "A função deve ser gerente, operador ou supervisor."},
		"agency.email_unavailable":     {i18n.ES: "No podemos agregar este e-mail. Pide a la persona que verifique su cuenta o usa otro e-mail.", i18n.EN: "We cannot add this e-mail. Ask the person to verify their account or use another e-mail.", i18n.PT: "Não podemos adicionar este e-mail. Peça à pessoa que verifique a conta ou use outro e-mail."},
		"agency.user_exists":           {i18n.ES: "Esta persona ya está en el equipo.", i18n.EN: "This person is already in the team.", i18n.PT: "Esta pessoa já está na equipe."},
		"agency.donor_name_invalid":    {i18n.ES: "Ingresa nombre y apellido del donante (2 a 100 caracteres).", i18n.EN: "Enter the donor's first and last name (2 to 100 characters).", i18n.PT: "Informe nome e sobrenome do doador (2 a 100 caracteres)."},
		"agency.uid_invalid":           {i18n.ES: "El documento no es válido.", i18n.EN: "The document is not valid.", i18n.PT: "O documento não é válido."},
		"agency.recurrence_invalid":    {i18n.ES: "Elige mensual o única.", i18n.EN: "Choose monthly or one-time.", i18n.PT: "Escolha mensal ou única."},
		"agency.card_invalid":          {i18n.ES: "Revisa los datos de la tarjeta.", i18n.EN: "Check the card details.", i18n.PT: "Confira os dados do cartão."},
		"agency.key_invalid":           {i18n.ES: "Vuelve a enviar el formulario.", i18n.EN: "Send the form again.", i18n.PT: "Envie o formulário novamente."},
		"agency.amount_not_offered":    {i18n.ES: "Elige uno de los montos de la campaña.", i18n.EN: "Choose one of the campaign's amounts.", i18n.PT: "Escolha um dos valores da campanha."},
		"agency.one_time_not_allowed":  {i18n.ES: "Esta campaña solo acepta donaciones mensuales.", i18n.EN: "This campaign only takes monthly donations.", i18n.PT: "Esta campanha só aceita doações mensais."},
		"agency.card_refused":          {i18n.ES: "La pasarela rechazó la tarjeta. Prueba con otra.", i18n.EN: "The gateway refused the card. Try another one.", i18n.PT: "O gateway recusou o cartão. Tente outro."},
		"agency.not_accepting":         {i18n.ES: "La organización no tiene una pasarela de pago conectada: no puede recibir donaciones.", i18n.EN: "The organisation has no payment gateway connected: it cannot take donations.", i18n.PT: "A organização não tem um gateway de pagamento conectado: não pode receber doações."},
		"agency.gateway_unavailable":   {i18n.ES: "No pudimos contactar la pasarela de pago. Inténtalo de nuevo.", i18n.EN: "We could not reach the payment gateway. Try again.", i18n.PT: "Não conseguimos contatar o gateway de pagamento. Tente novamente."},
		"agency.already_synced":        {i18n.ES: "Esta alta ya pasó a la organización.", i18n.EN: "This sign-up already went to the organisation.", i18n.PT: "Este cadastro já passou à organização."},
		"agency.voided":                {i18n.ES: "Esta alta fue anulada.", i18n.EN: "This sign-up was voided.", i18n.PT: "Este cadastro foi anulado."},
		"agency.not_pending":           {i18n.ES: "Solo se anula un alta mientras espera su sincronización.", i18n.EN: "A sign-up can only be voided while it waits for its sync.", i18n.PT: "Um cadastro só pode ser anulado enquanto aguarda a sincronização."},
		"agency.not_synced":            {i18n.ES: "Esta alta todavía no es una donación de la organización: espera su sincronización.", i18n.EN: "This sign-up is not the organisation's donation yet: wait for its sync.", i18n.PT: "Este cadastro ainda não é uma doação da organização: aguarde a sincronização."},
	})
}
