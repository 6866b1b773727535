package user

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		"user.email_required":         {i18n.ES: "Ingresa el e-mail de la persona.", i18n.EN: "Enter the person's e-mail.", i18n.PT: "Informe o e-mail da pessoa."},
		"user.email_invalid":          {i18n.ES: "El e-mail no es válido.", i18n.EN: "The e-mail is not valid.", i18n.PT: "O e-mail não é válido."},
		"user.first_name_required":    {i18n.ES: "Ingresa el nombre.", i18n.EN: "Enter the first name.", i18n.PT: "Informe o nome."},
		"user.first_name_min_length":  {i18n.ES: "El nombre debe tener al menos 3 caracteres.", i18n.EN: "The first name must have at least 3 characters.", i18n.PT: "O nome deve ter pelo menos 3 caracteres."},
		"user.last_name_required":     {i18n.ES: "Ingresa el apellido.", i18n.EN: "Enter the last name.", i18n.PT: "Informe o sobrenome."},
		"user.last_name_min_length":   {i18n.ES: "El apellido debe tener al menos 3 caracteres.", i18n.EN: "The last name must have at least 3 characters.", i18n.PT: "O sobrenome deve ter pelo menos 3 caracteres."},
		"user.name_too_long":          {i18n.ES: "Máximo 100 caracteres.", i18n.EN: "At most 100 characters.", i18n.PT: "No máximo 100 caracteres."},
		"user.role_required":          {i18n.ES: "Elige un rol.", i18n.EN: "Choose a role.", i18n.PT: "Escolha uma função."},
		"user.role_invalid":           {i18n.ES: "El rol debe ser administrador, operador o supervisor.", i18n.EN: "The role must be administrator, operator or supervisor.", i18n.PT: "A função deve ser administrador, operador ou supervisor."},
		"user.status_invalid":         {i18n.ES: "El estado debe ser active, discarded o pending.", i18n.EN: "The status must be active, discarded or pending.", i18n.PT: "O status deve ser active, discarded ou pending."},
		"user.already_member":         {i18n.ES: "Esta persona ya es usuaria activa de la organización.", i18n.EN: "This person is already an active user of the organisation.", i18n.PT: "Esta pessoa já é usuária ativa da organização."},
		"user.discarded_reactivate":   {i18n.ES: "Esta persona fue dada de baja de la organización. Reactívala desde la lista de usuarios.", i18n.EN: "This person was discarded from the organisation. Reactivate them from the users list.", i18n.PT: "Esta pessoa foi desativada da organização. Reative-a pela lista de usuários."},
		"user.discarded":              {i18n.ES: "Este usuario está dado de baja. Reactívalo primero.", i18n.EN: "This user is discarded. Reactivate them first.", i18n.PT: "Este usuário está desativado. Reative-o primeiro."},
		"user.cannot_discard_self":    {i18n.ES: "No puedes darte de baja a ti mismo. Pide a otro administrador que lo haga.", i18n.EN: "You cannot discard yourself. Ask another administrator to do it.", i18n.PT: "Você não pode desativar a si mesmo. Peça a outro administrador."},
		"user.last_administrator":     {i18n.ES: "La organización necesita al menos un administrador activo. Nombra a otro administrador primero.", i18n.EN: "The organisation needs at least one active administrator. Make someone else an administrator first.", i18n.PT: "A organização precisa de pelo menos um administrador ativo. Torne outra pessoa administradora primeiro."},
		"user.invitation_not_sent":    {i18n.ES: "La invitación quedó pendiente, pero no pudimos enviar el e-mail. Reenvíalo desde la lista de usuarios.", i18n.EN: "The invitation is pending, but we could not send the e-mail. Resend it from the users list.", i18n.PT: "O convite ficou pendente, mas não conseguimos enviar o e-mail. Reenvie-o pela lista de usuários."},
		"user.invitation_pending":     {i18n.ES: "Esta persona ya tiene una invitación pendiente. Puedes reenviarla desde la lista de usuarios.", i18n.EN: "This person already has a pending invitation. You can resend it from the users list.", i18n.PT: "Esta pessoa já tem um convite pendente. Você pode reenviá-lo pela lista de usuários."},
		"invitation.not_found":        {i18n.ES: "Este enlace de invitación no es válido o ya fue usado. Pide una nueva invitación.", i18n.EN: "This invitation link is not valid or was already used. Ask for a new invitation.", i18n.PT: "Este link de convite não é válido ou já foi usado. Peça um novo convite."},
		"invitation.expired":          {i18n.ES: "Este enlace de invitación venció. Pide que te reenvíen la invitación.", i18n.EN: "This invitation link has expired. Ask for it to be sent again.", i18n.PT: "Este link de convite venceu. Peça que o reenviem."},
		"invitation.sign_in_required": {i18n.ES: "Ya existe una cuenta con este e-mail. Inicia sesión para aceptar la invitación.", i18n.EN: "An account with this e-mail already exists. Sign in to accept the invitation.", i18n.PT: "Já existe uma conta com este e-mail. Entre para aceitar o convite."},
		"invitation.wrong_account":    {i18n.ES: "Esta invitación es para otro e-mail. Inicia sesión con la cuenta del e-mail invitado.", i18n.EN: "This invitation is for another e-mail. Sign in with the invited e-mail's account.", i18n.PT: "Este convite é para outro e-mail. Entre com a conta do e-mail convidado."},
	})
}
