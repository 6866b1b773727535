package endpoint

import (
	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/authz"
)

// Groups are the route groups a domain mounts its endpoints on, built once by api/server.go with
// their guards, so every domain is mounted the same way: domain.NewHandler(…).Mount(groups).
type Groups struct {
	// Public is "/": the body limit and the card guard, no session (public forms, signup).
	Public *gin.RouterGroup
	// Manage is "/manage/api", Account "/account/api", Settings "/manage" (the spec's
	// /manage/organization paths) and Staff "/staff/api": CSRF and a verified session.
	Manage, Account, Settings, Staff *gin.RouterGroup
	// Upload is a group with the same guards as Manage under prefix, with limit instead of the
	// default body limit (documents, logos, covers).
	Upload func(prefix string, limit gin.HandlerFunc) *gin.RouterGroup
	// Authz declares each route's permit (Authz.Require), which also puts the organisation's scope
	// in the request context.
	Authz *authz.Authz
}

// Mounter is a domain's HTTP side.
type Mounter interface{ Mount(Groups) }
