package integration

import (
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/i18n"
)

// Handler serves the integrations' routes.
type Handler struct{ s *Service }

// NewHandler builds the handler.
func NewHandler(s *Service) Handler { return Handler{s: s} }

// Mount mounts the list and creation under /manage/api/integrations (/manage/settings/integrations
// is the web app's page) and the spec's calls under /manage/settings/integrations/{uuid}. Only
// administrators (manage_organization) see or change an integration: it holds the CRM's credentials.
func (h Handler) Mount(g endpoint.Groups) {
	admin := g.Authz.Require(authz.ManageOrganization)
	g.Manage.GET("/integrations", admin, endpoint.HandleScoped(h.s.List))
	g.Manage.POST("/integrations", admin, endpoint.HandleScoped(h.s.Create))
	base := "/settings/integrations/:uuid"
	g.Settings.GET(base+"/setup", admin, endpoint.HandleScoped(h.s.GetSetup))
	g.Settings.PATCH(base+"/setup", admin, endpoint.HandleScoped(h.s.PatchSetup))
	g.Settings.POST(base+"/setup/sync", admin, endpoint.HandleScoped(h.s.Resync))
	g.Settings.POST(base+"/rules", admin, endpoint.HandleScoped(h.s.CreateRule))
	g.Settings.PATCH(base+"/rules/:id", admin, endpoint.HandleScoped(h.s.PatchRule))
	g.Settings.DELETE(base+"/rules/:id", admin, endpoint.HandleScoped(h.s.DeleteRule))
	g.Settings.GET(base+"/requests/page/:page", admin, endpoint.HandleScoped(h.s.Requests))
	g.Settings.POST(base+"/requests/:id/retry", admin, endpoint.HandleScoped(h.s.Retry))
}

func init() {
	i18n.Register(i18n.Catalog{
		"crm.credentials_refused": {
			i18n.ES: "El CRM rechazó el client id o el client secret. Revísalos en la app conectada de tu CRM.",
			i18n.EN: "The CRM refused the client id or client secret. Check them in your CRM's connected app.",
			i18n.PT: "O CRM recusou o client id ou o client secret. Confira-os no app conectado do seu CRM.",
		},
		"crm.login_url_invalid": {
			i18n.ES: "Ingresa la dirección de inicio de sesión del CRM (https://login.salesforce.com o la de tu dominio).",
			i18n.EN: "Enter the CRM's login address (https://login.salesforce.com or your My Domain's).",
			i18n.PT: "Informe o endereço de login do CRM (https://login.salesforce.com ou o do seu domínio).",
		},
		"crm.limit_exceeded": {
			i18n.ES: "El CRM agotó su límite diario de llamadas. Prueba de nuevo cuando se renueve.",
			i18n.EN: "The CRM has used up its daily call limit. Try again when it renews.",
			i18n.PT: "O CRM esgotou seu limite diário de chamadas. Tente de novo quando renovar.",
		},
		"crm.external_id_missing": {
			i18n.ES: "El CRM no tiene el campo de id externo %s en %s. Créalo como campo de texto marcado como External ID.",
			i18n.EN: "The CRM has no external id field %s on %s. Create it as a text field marked External ID.",
			i18n.PT: "O CRM não tem o campo de id externo %s em %s. Crie-o como campo de texto marcado como External ID.",
		},
		"crm.name_required": {
			i18n.ES: "Ingresa un nombre (hasta 80 caracteres).", i18n.EN: "Enter a name (up to 80 characters).", i18n.PT: "Informe um nome (até 80 caracteres).",
		},
		"crm.login_url_required": {
			i18n.ES: "Ingresa la dirección de inicio de sesión.", i18n.EN: "Enter the login address.", i18n.PT: "Informe o endereço de login.",
		},
		"crm.client_id_required": {
			i18n.ES: "Ingresa el client id.", i18n.EN: "Enter the client id.", i18n.PT: "Informe o client id.",
		},
		"crm.client_secret_required": {
			i18n.ES: "Ingresa el client secret.", i18n.EN: "Enter the client secret.", i18n.PT: "Informe o client secret.",
		},
		"crm.daily_call_limit_invalid": {
			i18n.ES: "El límite diario debe ser un número de llamadas mayor que cero.", i18n.EN: "The daily limit must be a number of calls above zero.",
			i18n.PT: "O limite diário deve ser um número de chamadas maior que zero.",
		},
		"crm.status_invalid": {
			i18n.ES: "El estado debe ser activo o pausado.", i18n.EN: "The status must be active or paused.", i18n.PT: "O status deve ser ativo ou pausado.",
		},
		"crm.field_taken": {
			i18n.ES: "Otro atributo ya se envía a ese campo del CRM.", i18n.EN: "Another attribute is already sent to that CRM field.",
			i18n.PT: "Outro atributo já é enviado a esse campo do CRM.",
		},
		"crm.page_invalid": {
			i18n.ES: "La página debe ser 1 o mayor.", i18n.EN: "The page must be 1 or more.", i18n.PT: "A página deve ser 1 ou maior.",
		},
	})
}
