package agency

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// Keto permits of the Agency, Campaign and Donation namespaces (identity/namespaces.keto.ts).
const (
	PermitAdminister   = "administer"
	PermitWork         = "work"
	PermitSupervise    = "supervise"
	PermitAcquire      = "acquire"
	PermitManageDonors = "manage_donors"
	PermitManage       = "manage"
	PermitView         = "view"
	PermitCorrect      = "correct"
)

// Permissions asks Keto and writes the relations it decides on.
type Permissions interface {
	Check(ctx context.Context, namespace, object, permit, userID string) (bool, error)
	Grant(ctx context.Context, namespace, object, relation, userID string) error
	Revoke(ctx context.Context, namespace, object, relation, userID string) error
	RevokeAll(ctx context.Context, namespace, object, relation string) error
	Relate(ctx context.Context, namespace, object, relation, subjectNamespace, subjectObject string) error
	Unrelate(ctx context.Context, namespace, object, relation, subjectNamespace, subjectObject string) error
}

// Directory is what the package needs of the directory.
type Directory interface {
	Directory() *pgxpool.Pool
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	GetOrganization(ctx context.Context, id uuid.UUID) (tenants.Organization, error)
	MembershipsOf(ctx context.Context, userID uuid.UUID) ([]tenants.Membership, error)
}

// Deps are the package's collaborators.
type Deps struct {
	Config  *config.Config
	Tenants Directory
	Keto    Permissions
	// Cards saves a live acquisition's card at the organisation's gateway.
	Cards Cards
	// Syncs starts a live acquisition's sync.
	Syncs Syncs
	// Donations changes synced donations the organisation's way.
	Donations Donations
	// Tokenizers (by gateway) and Connections give the acquisition form the active gateway's
	// tokeniser and the organisation's public key: card data goes from the browser to the gateway only.
	Tokenizers  map[string]string
	Connections interface {
		ActiveConnection(ctx context.Context, scope tenants.Scope, gateway string) (connections.Connection, error)
	}
}

// Handler serves both sides of agencies.
type Handler struct {
	tenants    Directory
	keto       Permissions
	kratos     *identity.Kratos
	outbox     *outbox.Outbox
	publicURL  string
	cards      Cards
	tokenizers map[string]string
	conns      interface {
		ActiveConnection(ctx context.Context, scope tenants.Scope, gateway string) (connections.Connection, error)
	}
	syncs     Syncs
	donations Donations
}

// NewHandler builds the handler.
func NewHandler(d Deps) *Handler {
	return &Handler{tenants: d.Tenants, keto: d.Keto, publicURL: d.Config.PublicURL, cards: d.Cards, syncs: d.Syncs, tokenizers: d.Tokenizers, conns: d.Connections, donations: d.Donations,
		kratos: identity.NewKratos(d.Config.KratosAdmin, &http.Client{Timeout: 10 * time.Second}),
		outbox: outbox.New(d.Tenants.Directory(), d.Config)}
}

func (h *Handler) directory() *dirdb.Queries { return dirdb.Store(h.tenants.Directory()) }

// Mount mounts the organisation side on /manage/api (the spec's §7 paths under
// /manage/settings/agencies are the pages; their calls live here beside every other manage call),
// each needing the organisation's manage_agencies permit, and the ones on an agency its administer
// permit too:
//
//	GET    /agencies?status=active|discarded|all        {"agencies": [Agency]}
//	POST   /agencies                                    {account: {agency_name, mode, sync_delay}} → 201 One
//	GET    /agencies/campaigns                          the campaigns the association form offers
//	GET    /agencies/:token                             One
//	PATCH  /agencies/:token                             {account: {…}} → One
//	DELETE /agencies/:token                             discard, sign its people out → One
//	POST   /agencies/:token/campaigns/:uuid             {allow_one_time, allow_other_amount, amounts} → One
//	PUT    /agencies/:token/campaigns/:uuid             the same, to change it
//	DELETE /agencies/:token/campaigns/:uuid             → One
//	POST   /agencies/:token/users                       {email, first_name, last_name, role, acquisition, management} → 201 {user}
//	PATCH  /agencies/:token/users/:uuid                 {role, acquisition, management} → {user}
//	DELETE /agencies/:token/users/:uuid                 discard → {user}
//	POST   /agencies/:token/users/:uuid/reactivate      → {user}
//
// and the agency side on work, the /agency/api group (CSRF and a verified session), see work.go.
func (h *Handler) Mount(g endpoint.Groups, work *gin.RouterGroup) {
	m := g.Authz.Require(authz.ManageAgencies)
	g.Manage.GET("/agencies", m, endpoint.HandleScoped(h.list))
	g.Manage.POST("/agencies", m, endpoint.HandleScoped(h.create))
	g.Manage.GET("/agencies/campaigns", m, endpoint.HandleScoped(h.authorisable))
	g.Manage.GET("/agencies/:token", m, endpoint.Handle(h.show))
	g.Manage.PATCH("/agencies/:token", m, endpoint.Handle(h.update))
	g.Manage.DELETE("/agencies/:token", m, endpoint.Handle(h.discard))
	g.Manage.POST("/agencies/:token/campaigns/:uuid", m, endpoint.Handle(h.associate))
	g.Manage.PUT("/agencies/:token/campaigns/:uuid", m, endpoint.Handle(h.associate))
	g.Manage.DELETE("/agencies/:token/campaigns/:uuid", m, endpoint.Handle(h.dissociate))
	g.Manage.POST("/agencies/:token/users", m, endpoint.Handle(h.createUser))
	g.Manage.PATCH("/agencies/:token/users/:uuid", m, endpoint.Handle(h.editUser))
	g.Manage.DELETE("/agencies/:token/users/:uuid", m, endpoint.Handle(h.discardUser))
	g.Manage.POST("/agencies/:token/users/:uuid/reactivate", m, endpoint.Handle(h.reactivateUser))
	h.mountWork(work)
}
