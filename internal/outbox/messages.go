package outbox

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		// The e-mails' texts, by template (templates/<kind>.tmpl).
		// user_invitation: %s inviter, %s organisation, %s accept page, %d days.
		"user_invitation_subject": {i18n.ES: "Te invitaron a %s en Aporta", i18n.EN: "You have been invited to %s on Aporta", i18n.PT: "Você foi convidado para %s no Aporta"},
		"user_invitation_body": {
			i18n.ES: "Hola:\n\n%s te invitó a usar Aporta con la organización %s.\n\nPara aceptar la invitación, abre este enlace:\n%s\n\nEl enlace vence en %d días y sirve una sola vez. Si ya tienes una cuenta en Aporta con este e-mail, inicia sesión cuando te lo pidamos. Si no esperabas esta invitación, ignora este mensaje.\n",
			i18n.EN: "Hello,\n\n%s invited you to use Aporta with the organisation %s.\n\nTo accept the invitation, open this link:\n%s\n\nThe link expires in %d days and works once. If you already have an Aporta account with this e-mail, sign in when asked. If you did not expect this invitation, ignore this message.\n",
			i18n.PT: "Olá,\n\n%s convidou você para usar o Aporta com a organização %s.\n\nPara aceitar o convite, abra este link:\n%s\n\nO link vence em %d dias e funciona uma única vez. Se você já tem uma conta no Aporta com este e-mail, entre quando solicitado. Se não esperava este convite, ignore esta mensagem.\n",
		},
		// donation_thanks (the campaign's own text comes first).
		"donation.thanks_email_summary": {i18n.ES: "Tu donación: %s, %s.\nTu comprobante: %s", i18n.EN: "Your donation: %s, %s.\nYour receipt: %s", i18n.PT: "Sua doação: %s, %s.\nSeu comprovante: %s"},
		// leads_export
		"export.email.subject": {i18n.ES: "Tu descarga de leads de Aporta está lista", i18n.EN: "Your Aporta leads download is ready", i18n.PT: "Seu download de leads do Aporta está pronto"},
		"export.email.body": {
			i18n.ES: "Hola:\n\nDescarga el archivo con los leads de los últimos 90 días aquí:\n%s\n\nEl enlace es válido por 24 horas.\n",
			i18n.EN: "Hello:\n\nDownload the file with the leads of the last 90 days here:\n%s\n\nThe link is valid for 24 hours.\n",
			i18n.PT: "Olá:\n\nBaixe o arquivo com os leads dos últimos 90 dias aqui:\n%s\n\nO link é válido por 24 horas.\n"},
		// document_approved, document_rejected, account_enabled, staff_review_reminder
		"onboarding.email.document_approved.subject": {
			i18n.ES: "%s: aprobamos un documento", i18n.EN: "%s: we approved a document", i18n.PT: "%s: aprovamos um documento"},
		"onboarding.email.document_approved.body": {
			i18n.ES: "Hola, equipo de %s.\n\nRevisamos y aprobamos el documento «%s».\n\nPuedes seguir el estado de tu cuenta en %s.",
			i18n.EN: "Hello, %s team.\n\nWe reviewed and approved the document “%s”.\n\nFollow your account's status at %s.",
			i18n.PT: "Olá, equipe de %s.\n\nRevisamos e aprovamos o documento «%s».\n\nAcompanhe o status da sua conta em %s."},
		"onboarding.email.document_rejected.subject": {
			i18n.ES: "%s: necesitamos que vuelvas a subir un documento", i18n.EN: "%s: please upload a document again", i18n.PT: "%s: precisamos que você envie um documento novamente"},
		"onboarding.email.document_rejected.body": {
			i18n.ES: "Hola, equipo de %s.\n\nNo pudimos aprobar el documento «%s».\nMotivo: %s\n\nSúbelo de nuevo en %s y lo revisaremos en menos de 48 horas.",
			i18n.EN: "Hello, %s team.\n\nWe could not approve the document “%s”.\nReason: %s\n\nUpload it again at %s and we will review it within 48 hours.",
			i18n.PT: "Olá, equipe de %s.\n\nNão pudemos aprovar o documento «%s».\nMotivo: %s\n\nEnvie-o novamente em %s e o revisaremos em menos de 48 horas."},
		"onboarding.email.account_enabled.subject": {
			i18n.ES: "%s: tu cuenta está habilitada", i18n.EN: "%s: your account is enabled", i18n.PT: "%s: sua conta está habilitada"},
		"onboarding.email.account_enabled.body": {
			i18n.ES: "Hola, equipo de %s.\n\n¡Tu cuenta de Aporta está habilitada! Ya puedes publicar campañas y recibir donaciones.\n\nCrea tu primera campaña en %s.",
			i18n.EN: "Hello, %s team.\n\nYour Aporta account is enabled! You can now publish campaigns and receive donations.\n\nCreate your first campaign at %s.",
			i18n.PT: "Olá, equipe de %s.\n\nSua conta Aporta está habilitada! Você já pode publicar campanhas e receber doações.\n\nCrie sua primeira campanha em %s."},
		"onboarding.email.staff_review_reminder.subject": {
			i18n.ES: "Revisión pendiente: %s", i18n.EN: "Review pending: %s", i18n.PT: "Revisão pendente: %s"},
		"onboarding.email.staff_review_reminder.body": {
			i18n.ES: "Los documentos de %s esperan revisión; el objetivo de 48 horas vence el %s.\n\nRevísalos en %s.",
			i18n.EN: "The documents of %s are waiting for review; the 48-hour target ends on %s.\n\nReview them at %s.",
			i18n.PT: "Os documentos de %s aguardam revisão; a meta de 48 horas vence em %s.\n\nRevise-os em %s."},
		// trial_started, trial_ending, trial_ended, plan_active: %[1]s organisation, %[2]d days left,
		// %[3]s end date, %[4]s plans URL, %[5]s plan.
		"subscription.email.trial_started.subject": {i18n.ES: "Tu prueba de Aporta Essential comenzó", i18n.EN: "Your Aporta Essential trial has started", i18n.PT: "Seu teste do Aporta Essential começou"},
		"subscription.email.trial_started.body": {
			i18n.ES: "Hola, %[1]s:\n\nTienes 90 días de prueba gratis del plan Essential, hasta el %[3]s.\nConoce los planes: %[4]s\n",
			i18n.EN: "Hello, %[1]s:\n\nYou have a free 90-day trial of the Essential plan, until %[3]s.\nSee the plans: %[4]s\n",
			i18n.PT: "Olá, %[1]s:\n\nVocê tem 90 dias de teste grátis do plano Essential, até %[3]s.\nConheça os planos: %[4]s\n"},
		"subscription.email.trial_ending.subject": {i18n.ES: "Tu prueba de Aporta termina en %[2]d días", i18n.EN: "Your Aporta trial ends in %[2]d days", i18n.PT: "Seu teste do Aporta termina em %[2]d dias"},
		"subscription.email.trial_ending.body": {
			i18n.ES: "Hola, %[1]s:\n\nTu prueba del plan Essential termina el %[3]s (en %[2]d días). Después, si no eliges un plan, se aplicará una comisión del 3,5%% sobre las donaciones vigentes y no podrás recibir donaciones nuevas.\nElige tu plan: %[4]s\n",
			i18n.EN: "Hello, %[1]s:\n\nYour Essential trial ends on %[3]s (in %[2]d days). After that, unless you choose a plan, a 3.5%% commission applies to current donations and you cannot receive new donations.\nChoose your plan: %[4]s\n",
			i18n.PT: "Olá, %[1]s:\n\nSeu teste do plano Essential termina em %[3]s (em %[2]d dias). Depois, se você não escolher um plano, será aplicada uma comissão de 3,5%% sobre as doações vigentes e você não poderá receber novas doações.\nEscolha seu plano: %[4]s\n"},
		"subscription.email.trial_ended.subject": {i18n.ES: "Tu prueba de Aporta terminó", i18n.EN: "Your Aporta trial has ended", i18n.PT: "Seu teste do Aporta terminou"},
		"subscription.email.trial_ended.body": {
			i18n.ES: "Hola, %[1]s:\n\nTu prueba del plan Essential terminó el %[3]s. Desde ahora se aplica una comisión del 3,5%% sobre las donaciones vigentes y no puedes recibir donaciones nuevas hasta que elijas un plan.\nElige tu plan: %[4]s\n",
			i18n.EN: "Hello, %[1]s:\n\nYour Essential trial ended on %[3]s. From now on a 3.5%% commission applies to current donations and you cannot receive new donations until you choose a plan.\nChoose your plan: %[4]s\n",
			i18n.PT: "Olá, %[1]s:\n\nSeu teste do plano Essential terminou em %[3]s. A partir de agora é aplicada uma comissão de 3,5%% sobre as doações vigentes e você não pode receber novas doações até escolher um plano.\nEscolha seu plano: %[4]s\n"},
		"subscription.email.plan_active.subject": {i18n.ES: "Tu plan de Aporta está activo", i18n.EN: "Your Aporta plan is active", i18n.PT: "Seu plano do Aporta está ativo"},
		"subscription.email.plan_active.body": {
			i18n.ES: "Hola, %[1]s:\n\nTu plan %[5]s está activo. Ya puedes recibir donaciones nuevas y no se aplica la comisión posterior a la prueba.\n",
			i18n.EN: "Hello, %[1]s:\n\nYour %[5]s plan is active. You can receive new donations again and the post-trial commission no longer applies.\n",
			i18n.PT: "Olá, %[1]s:\n\nSeu plano %[5]s está ativo. Você já pode receber novas doações e a comissão pós-teste não se aplica mais.\n"},

		// subscription_payment_failed: %[1]s organisation, %[2]s plan, %[3]s amount, %[4]s subscription page URL.
		"billing.email.payment_failed.subject": {i18n.ES: "No pudimos cobrar tu plan de Aporta", i18n.EN: "We could not charge your Aporta plan", i18n.PT: "Não conseguimos cobrar seu plano do Aporta"},
		"billing.email.payment_failed.body": {
			i18n.ES: "Hola, %[1]s:\n\nNo pudimos cobrar %[3]s de tu plan %[2]s. Lo intentaremos de nuevo en los próximos días; si el último intento falla, tu cuenta quedará restringida.\nCambia el medio de pago: %[4]s\n",
			i18n.EN: "Hello, %[1]s:\n\nWe could not charge %[3]s for your %[2]s plan. We will try again over the next days; if the last attempt fails, your account will be restricted.\nChange the payment method: %[4]s\n",
			i18n.PT: "Olá, %[1]s:\n\nNão conseguimos cobrar %[3]s do seu plano %[2]s. Tentaremos novamente nos próximos dias; se a última tentativa falhar, sua conta ficará restrita.\nAltere a forma de pagamento: %[4]s\n"},
		"billing.email.change_method": {i18n.ES: "Cambiar el medio de pago", i18n.EN: "Change the payment method", i18n.PT: "Alterar a forma de pagamento"},

		// E-mail buttons (templates/*.tmpl).
		"outbox.email.create_campaign":   {i18n.ES: "Crear una campaña", i18n.EN: "Create a campaign", i18n.PT: "Criar uma campanha"},
		"outbox.email.see_account":       {i18n.ES: "Ver mi cuenta", i18n.EN: "See my account", i18n.PT: "Ver minha conta"},
		"outbox.email.upload_again":      {i18n.ES: "Subir el documento", i18n.EN: "Upload the document", i18n.PT: "Enviar o documento"},
		"outbox.email.review":            {i18n.ES: "Revisar", i18n.EN: "Review", i18n.PT: "Revisar"},
		"outbox.email.accept_invitation": {i18n.ES: "Aceptar la invitación", i18n.EN: "Accept the invitation", i18n.PT: "Aceitar o convite"},
		"outbox.email.download":          {i18n.ES: "Descargar", i18n.EN: "Download", i18n.PT: "Baixar"},
		"outbox.email.see_receipt":       {i18n.ES: "Ver mi comprobante", i18n.EN: "See my receipt", i18n.PT: "Ver meu comprovante"},
		"outbox.email.see_plans":         {i18n.ES: "Ver los planes", i18n.EN: "See the plans", i18n.PT: "Ver os planos"},

		// Kratos's codes (templates/auth_code.tmpl, auth_unknown_address.tmpl).
		"outbox.email.verification_code.subject": {i18n.ES: "Tu código de verificación de Aporta", i18n.EN: "Your Aporta verification code", i18n.PT: "Seu código de verificação do Aporta"},
		"outbox.email.recovery_code.subject":     {i18n.ES: "Tu código para recuperar tu cuenta de Aporta", i18n.EN: "Your Aporta account recovery code", i18n.PT: "Seu código para recuperar sua conta do Aporta"},
		"outbox.email.login_code.subject":        {i18n.ES: "Tu código para ingresar a Aporta", i18n.EN: "Your Aporta sign-in code", i18n.PT: "Seu código para entrar no Aporta"},
		"outbox.email.registration_code.subject": {i18n.ES: "Tu código para crear tu cuenta de Aporta", i18n.EN: "Your Aporta sign-up code", i18n.PT: "Seu código para criar sua conta do Aporta"},
		"outbox.email.code.body": {
			i18n.ES: "Hola:\n\nTu código es %s.\n\nIngrésalo en la página donde lo pediste. Si no fuiste tú, ignora este mensaje.\n",
			i18n.EN: "Hello:\n\nYour code is %s.\n\nEnter it on the page where you asked for it. If it was not you, ignore this message.\n",
			i18n.PT: "Olá:\n\nSeu código é %s.\n\nDigite-o na página onde você o pediu. Se não foi você, ignore esta mensagem.\n"},
		"outbox.email.unknown_address.subject": {i18n.ES: "Alguien pidió un código de Aporta para este e-mail", i18n.EN: "Someone asked for an Aporta code for this e-mail", i18n.PT: "Alguém pediu um código do Aporta para este e-mail"},
		"outbox.email.unknown_address.body": {
			i18n.ES: "Hola:\n\nAlguien pidió un código para esta dirección, pero no hay una cuenta de Aporta con ella. Si no fuiste tú, ignora este mensaje.\n",
			i18n.EN: "Hello:\n\nSomeone asked for a code for this address, but there is no Aporta account with it. If it was not you, ignore this message.\n",
			i18n.PT: "Olá:\n\nAlguém pediu um código para este endereço, mas não há uma conta do Aporta com ele. Se não foi você, ignore esta mensagem.\n"},

		// A gateway refused to renew a connection (templates/gateway_needs_reconnection.tmpl).
		"gateway.email.needs_reconnection.subject": {
			i18n.ES: "%[1]s: vuelve a conectar %[2]s para seguir recibiendo donaciones",
			i18n.EN: "%[1]s: reconnect %[2]s to keep receiving donations",
			i18n.PT: "%[1]s: reconecte o %[2]s para continuar recebendo doações",
		},
		"gateway.email.needs_reconnection.body": {
			i18n.ES: "%[2]s rechazó la renovación de la conexión de %[1]s con la cuenta %[3]s. Hasta que la vuelvas a conectar, las donaciones nuevas no se pueden cobrar y los cobros mensuales esperan. Reconéctala en %[4]s",
			i18n.EN: "%[2]s refused to renew %[1]s's connection with the account %[3]s. Until you connect it again, new donations cannot be charged and monthly charges wait. Reconnect it at %[4]s",
			i18n.PT: "O %[2]s recusou a renovação da conexão de %[1]s com a conta %[3]s. Até você reconectá-la, as novas doações não podem ser cobradas e as cobranças mensais aguardam. Reconecte em %[4]s",
		},
		"gateway.email.reconnect": {i18n.ES: "Reconectar", i18n.EN: "Reconnect", i18n.PT: "Reconectar"},
	})
}
