package onboarding

import "github.com/aporta/aporta/api/i18n"

func init() {
	i18n.Register(i18n.Catalog{
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
	})
}
