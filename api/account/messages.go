package account

import (
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/taxid"
)

func init() {
	c := i18n.Catalog{
		"account.email_required":            {i18n.ES: "Ingresa tu e-mail.", i18n.EN: "Enter your e-mail.", i18n.PT: "Informe seu e-mail."},
		"account.email_invalid":             {i18n.ES: "El e-mail no es válido.", i18n.EN: "The e-mail is not valid.", i18n.PT: "O e-mail não é válido."},
		"account.email_taken":               {i18n.ES: "Ya existe una cuenta con este e-mail.", i18n.EN: "An account with this e-mail already exists.", i18n.PT: "Já existe uma conta com este e-mail."},
		"account.email_unchanged":           {i18n.ES: "El nuevo e-mail debe ser distinto del actual.", i18n.EN: "The new e-mail must differ from the current one.", i18n.PT: "O novo e-mail deve ser diferente do atual."},
		"account.cellphone_required":        {i18n.ES: "Ingresa tu número de celular.", i18n.EN: "Enter your cellphone number.", i18n.PT: "Informe seu número de celular."},
		"account.cellphone_invalid":         {i18n.ES: "El número de celular no es válido para el país elegido.", i18n.EN: "The cellphone number is not valid for the chosen country.", i18n.PT: "O número de celular não é válido para o país escolhido."},
		"account.cellphone_taken":           {i18n.ES: "Este número de celular ya está en uso.", i18n.EN: "This cellphone number is already in use.", i18n.PT: "Este número de celular já está em uso."},
		"account.cellphone_unchanged":       {i18n.ES: "El nuevo número debe ser distinto del actual.", i18n.EN: "The new number must differ from the current one.", i18n.PT: "O novo número deve ser diferente do atual."},
		"account.country_invalid":           {i18n.ES: "Elige un país válido.", i18n.EN: "Choose a valid country.", i18n.PT: "Escolha um país válido."},
		"account.name_required":             {i18n.ES: "Ingresa el nombre de la organización.", i18n.EN: "Enter the organisation's name.", i18n.PT: "Informe o nome da organização."},
		"account.name_min_length":           {i18n.ES: "El nombre debe tener al menos 3 caracteres.", i18n.EN: "The name must have at least 3 characters.", i18n.PT: "O nome deve ter pelo menos 3 caracteres."},
		"account.first_name_required":       {i18n.ES: "Ingresa tu nombre.", i18n.EN: "Enter your first name.", i18n.PT: "Informe seu nome."},
		"account.first_name_min_length":     {i18n.ES: "El nombre debe tener al menos 3 caracteres.", i18n.EN: "The first name must have at least 3 characters.", i18n.PT: "O nome deve ter pelo menos 3 caracteres."},
		"account.last_name_required":        {i18n.ES: "Ingresa tu apellido.", i18n.EN: "Enter your last name.", i18n.PT: "Informe seu sobrenome."},
		"account.last_name_min_length":      {i18n.ES: "El apellido debe tener al menos 3 caracteres.", i18n.EN: "The last name must have at least 3 characters.", i18n.PT: "O sobrenome deve ter pelo menos 3 caracteres."},
		"account.too_long":                  {i18n.ES: "El texto es demasiado largo.", i18n.EN: "The text is too long.", i18n.PT: "O texto é longo demais."},
		"account.password_required":         {i18n.ES: "Ingresa una contraseña.", i18n.EN: "Enter a password.", i18n.PT: "Informe uma senha."},
		"account.password_min_length":       {i18n.ES: "La contraseña debe tener al menos 12 caracteres.", i18n.EN: "The password must have at least 12 characters.", i18n.PT: "A senha deve ter pelo menos 12 caracteres."},
		"account.password_invalid":          {i18n.ES: "La contraseña debe tener al menos 12 caracteres, una mayúscula, un número y ningún espacio.", i18n.EN: "The password needs at least 12 characters, one uppercase letter, one digit and no spaces.", i18n.PT: "A senha precisa de pelo menos 12 caracteres, uma letra maiúscula, um número e nenhum espaço."},
		"account.current_password_invalid":  {i18n.ES: "La contraseña actual no es correcta.", i18n.EN: "The current password is not correct.", i18n.PT: "A senha atual não está correta."},
		"account.role_area_required":        {i18n.ES: "Elige tu área en la organización.", i18n.EN: "Choose your area in the organisation.", i18n.PT: "Escolha sua área na organização."},
		"account.uid_type_required":         {i18n.ES: "Elige el tipo de identificación.", i18n.EN: "Choose the identification type.", i18n.PT: "Escolha o tipo de identificação."},
		"account.code_required":             {i18n.ES: "Ingresa el código.", i18n.EN: "Enter the code.", i18n.PT: "Informe o código."},
		"account.code_invalid":              {i18n.ES: "El código no es correcto.", i18n.EN: "The code is not correct.", i18n.PT: "O código não está correto."},
		"account.code_expired":              {i18n.ES: "El código expiró o ya no es válido. Pide uno nuevo.", i18n.EN: "The code expired or is no longer valid. Ask for a new one.", i18n.PT: "O código expirou ou não é mais válido. Peça um novo."},
		"account.code_not_sent":             {i18n.ES: "Primero pide que te enviemos un código.", i18n.EN: "Ask us to send you a code first.", i18n.PT: "Primeiro peça que enviemos um código."},
		"account.too_many_code_attempts":    {i18n.ES: "Demasiados intentos con este código. Pide uno nuevo.", i18n.EN: "Too many attempts with this code. Ask for a new one.", i18n.PT: "Muitas tentativas com este código. Peça um novo."},
		"account.missing_cellphone_number":  {i18n.ES: "Agrega un número de celular para recibir el código.", i18n.EN: "Add a cellphone number to receive the code.", i18n.PT: "Adicione um número de celular para receber o código."},
		"account.already_verified":          {i18n.ES: "Este dato ya está verificado.", i18n.EN: "This is already verified.", i18n.PT: "Este dado já está verificado."},
		"account.verification_type_invalid": {i18n.ES: "Tipo de verificación desconocido (usa email o cellphone).", i18n.EN: "Unknown verification type (use email or cellphone).", i18n.PT: "Tipo de verificação desconhecido (use email ou cellphone)."},
		"account.send_code_failed":          {i18n.ES: "No pudimos enviar el código. Intenta de nuevo.", i18n.EN: "We could not send the code. Please try again.", i18n.PT: "Não conseguimos enviar o código. Tente novamente."},
		"signup.registration_in_use":        {i18n.ES: "Esta solicitud de registro ya se usó con otros datos.", i18n.EN: "This registration request was already used with other data.", i18n.PT: "Esta solicitação de cadastro já foi usada com outros dados."},
		"signup.registration_pending":       {i18n.ES: "Estamos terminando de crear tu cuenta. Intenta de nuevo en unos segundos.", i18n.EN: "We are still creating your account. Try again in a few seconds.", i18n.PT: "Ainda estamos criando sua conta. Tente novamente em alguns segundos."},
		"signup.idempotency_key_invalid":    {i18n.ES: "La clave Idempotency-Key debe tener entre 8 y 100 caracteres.", i18n.EN: "The Idempotency-Key must have 8 to 100 characters.", i18n.PT: "A chave Idempotency-Key deve ter entre 8 e 100 caracteres."},
		"email_change_code.subject":         {i18n.ES: "Tu código para confirmar tu nuevo e-mail en Aporta", i18n.EN: "Your code to confirm your new e-mail on Aporta", i18n.PT: "Seu código para confirmar seu novo e-mail na Aporta"},
		"email_change_code.body": {
			i18n.ES: "Para que %s sea el e-mail de tu cuenta de Aporta, ingresa este código: %s\n\nVence en %d minutos. Si no pediste este cambio, ignora este mensaje.",
			i18n.EN: "To make %s the e-mail of your Aporta account, enter this code: %s\n\nIt expires in %d minutes. If you did not ask for this change, ignore this message.",
			i18n.PT: "Para que %s seja o e-mail da sua conta na Aporta, informe este código: %s\n\nEle vence em %d minutos. Se você não pediu esta alteração, ignore esta mensagem.",
		},
		"email_change_requested.subject": {i18n.ES: "Se pidió cambiar el e-mail de tu cuenta de Aporta", i18n.EN: "A change of your Aporta account's e-mail was requested", i18n.PT: "Foi pedida a alteração do e-mail da sua conta na Aporta"},
		"email_change_requested.body": {
			i18n.ES: "Se pidió cambiar el e-mail de tu cuenta de Aporta a %s. El cambio se aplicará solo cuando se confirme el código enviado a esa dirección; hasta entonces sigues entrando con este e-mail.\n\nSi no fuiste tú, entra a Aporta y cambia tu contraseña ahora.",
			i18n.EN: "A change of your Aporta account's e-mail to %s was requested. It takes effect only once the code sent to that address is confirmed; until then you still sign in with this e-mail.\n\nIf this was not you, sign in to Aporta and change your password now.",
			i18n.PT: "Foi pedida a alteração do e-mail da sua conta na Aporta para %s. A alteração só vale quando o código enviado para esse endereço for confirmado; até lá você continua entrando com este e-mail.\n\nSe não foi você, entre na Aporta e altere sua senha agora.",
		},
		"email_changed.subject": {i18n.ES: "El e-mail de tu cuenta de Aporta cambió", i18n.EN: "Your Aporta account's e-mail changed", i18n.PT: "O e-mail da sua conta na Aporta foi alterado"},
		"email_changed.body": {
			i18n.ES: "El e-mail de tu cuenta de Aporta ahora es %s; desde ahora se entra con esa dirección y ya no con esta.\n\nSi no fuiste tú, responde a este mensaje para que te ayudemos a recuperar tu cuenta.",
			i18n.EN: "Your Aporta account's e-mail is now %s; from now on you sign in with that address, no longer with this one.\n\nIf this was not you, reply to this message and we will help you recover your account.",
			i18n.PT: "O e-mail da sua conta na Aporta agora é %s; a partir de agora se entra com esse endereço, não mais com este.\n\nSe não foi você, responda a esta mensagem para que ajudemos a recuperar sua conta.",
		},
	}
	for code, m := range taxid.Messages {
		c["signup."+string(code)] = map[i18n.Lang]string{i18n.ES: m.ES, i18n.EN: m.EN, i18n.PT: m.PT}
	}
	i18n.Register(c)
}
