package webhook

import (
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/i18n"
)

// Handler serves the webhooks' routes.
type Handler struct{ s *Service }

// NewHandler builds the handler.
func NewHandler(s *Service) Handler { return Handler{s: s} }

// Mount mounts the routes under /manage/api/webhooks (/manage/settings/webhooks is the web app's
// page). Only administrators (manage_organization) see or change endpoints, as with the other
// integrations: an endpoint receives the organisation's donors' data.
func (h Handler) Mount(g endpoint.Groups) {
	admin := g.Authz.Require(authz.ManageOrganization)
	g.Manage.GET("/webhooks", admin, endpoint.HandleScoped(h.s.List))
	g.Manage.POST("/webhooks", admin, endpoint.HandleScoped(h.s.Create))
	g.Manage.PATCH("/webhooks/:id", admin, endpoint.HandleScoped(h.s.Patch))
	g.Manage.DELETE("/webhooks/:id", admin, endpoint.HandleScoped(h.s.Delete))
	g.Manage.POST("/webhooks/:id/secret", admin, endpoint.HandleScoped(h.s.RotateSecret))
	g.Manage.GET("/webhooks/:id/deliveries", admin, endpoint.HandleScoped(h.s.Deliveries))
	g.Manage.POST("/webhooks/:id/deliveries/:delivery/resend", admin, endpoint.HandleScoped(h.s.Resend))
}

func init() {
	i18n.Register(i18n.Catalog{
		"webhook.url_invalid": {
			i18n.ES: "Ingresa una dirección completa, como https://ejemplo.org/webhooks.", i18n.ESAR: "Ingresá una dirección completa, como https://ejemplo.org/webhooks.",
			i18n.EN: "Enter a full address, such as https://example.org/webhooks.", i18n.PT: "Informe um endereço completo, como https://exemplo.org/webhooks.",
		},
		"webhook.url_https_required": {
			i18n.ES: "La dirección debe empezar con https://.", i18n.EN: "The address must start with https://.", i18n.PT: "O endereço deve começar com https://.",
		},
		"webhook.url_host_forbidden": {
			i18n.ES:   "Esa dirección apunta a una red privada o local; usa una dirección pública de internet.",
			i18n.ESAR: "Esa dirección apunta a una red privada o local; usá una dirección pública de internet.",
			i18n.EN:   "That address points to a private or local network; use a public internet address.",
			i18n.PT:   "Esse endereço aponta para uma rede privada ou local; use um endereço público da internet.",
		},
		"webhook.url_unresolvable": {
			i18n.ES: "No encontramos ese dominio. Revisa la dirección.", i18n.ESAR: "No encontramos ese dominio. Revisá la dirección.",
			i18n.EN: "We could not find that domain. Check the address.", i18n.PT: "Não encontramos esse domínio. Confira o endereço.",
		},
		"webhook.events_required": {
			i18n.ES: "Elige al menos un evento.", i18n.ESAR: "Elegí al menos un evento.", i18n.EN: "Choose at least one event.", i18n.PT: "Escolha pelo menos um evento.",
		},
		"webhook.event_unknown": {
			i18n.ES: "Uno de los eventos no existe.", i18n.EN: "One of the events does not exist.", i18n.PT: "Um dos eventos não existe.",
		},
		"webhook.description_too_long": {
			i18n.ES: "La descripción admite hasta 200 caracteres.", i18n.EN: "The description takes up to 200 characters.", i18n.PT: "A descrição aceita até 200 caracteres.",
		},
		"webhook.status_invalid": {
			i18n.ES: "El estado debe ser activo o desactivado.", i18n.EN: "The status must be active or disabled.", i18n.PT: "O status deve ser ativo ou desativado.",
		},
		"webhook.page_invalid": {
			i18n.ES: "La página debe ser 1 o mayor.", i18n.EN: "The page must be 1 or more.", i18n.PT: "A página deve ser 1 ou maior.",
		},
		"webhook.too_many": {
			i18n.ES: "Una organización puede tener hasta %d endpoints.", i18n.EN: "An organisation may have up to %d endpoints.", i18n.PT: "Uma organização pode ter até %d endpoints.",
		},
		"webhook.redirect_refused": {
			i18n.ES:   "El endpoint respondió con una redirección; no las seguimos. Registra la dirección final.",
			i18n.ESAR: "El endpoint respondió con una redirección; no las seguimos. Registrá la dirección final.",
			i18n.EN:   "The endpoint answered with a redirect; we do not follow them. Register the final address.",
			i18n.PT:   "O endpoint respondeu com um redirecionamento; não os seguimos. Cadastre o endereço final.",
		},
		"webhook.endpoint_disabled": {
			i18n.ES: "El endpoint está desactivado: actívalo para reenviar.", i18n.ESAR: "El endpoint está desactivado: activalo para reenviar.",
			i18n.EN: "The endpoint is disabled: enable it to resend.", i18n.PT: "O endpoint está desativado: ative-o para reenviar.",
		},
	})
}
