// Package staff is the verification console's API (/staff/api): product staff (Keto Staff
// verify_organizations) list organisations waiting for review across every country, open one,
// view its files, approve or reject each document, enable the account and grant a plan paid outside
// the product. Every action is kept in the directory's audit log and shown with the organisation.
package staff

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/api/organization"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/onboarding"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// PermitVerify is the Staff permit the console needs.
const PermitVerify = "verify_organizations"

// Audit actions.
const (
	ActionApprove = "approve_document"
	ActionReject  = "reject_document"
	ActionEnable  = "enable_account"
	ActionView    = "view_attachment"
	ActionPlan    = "grant_plan"
)

// MaxReason caps a rejection reason.
const MaxReason = 500

// PermissionChecker asks Keto.
type PermissionChecker interface {
	Check(ctx context.Context, namespace, object, permit, userID string) (bool, error)
}

// Onboarding drives the onboarding workflow.
type Onboarding interface {
	DocumentReviewed(ctx context.Context, orgID uuid.UUID, r onboarding.Review) error
	Enable(ctx context.Context, orgID uuid.UUID) error
}

// Plans applies a plan to an organisation (the subscription workflow). Organisations cannot set
// their own plan; besides billing, only this staff action changes it.
type Plans interface {
	Grant(ctx context.Context, orgID uuid.UUID, planCode string) error
}

// Handler serves /staff/api.
type Handler struct {
	directory  *pgxpool.Pool
	docs       *document.Service
	orgs       *organization.Service
	keto       PermissionChecker
	onboarding Onboarding
	plans      Plans
	now        func() time.Time
}

// NewHandler builds the handler.
func NewHandler(directory *pgxpool.Pool, d *document.Service, o *organization.Service, k PermissionChecker, ob Onboarding, p Plans) *Handler {
	return &Handler{directory: directory, docs: d, orgs: o, keto: k, onboarding: ob, plans: p, now: time.Now}
}

// RequireStaff lets only Keto Staff members with verify_organizations through (403 otherwise), and
// only with a session that passed a second factor (AAL2): a leaked staff password alone opens no
// organisation's files. Authenticate must run first.
func (h *Handler) RequireStaff() gin.HandlerFunc {
	return func(c *gin.Context) {
		u := authz.User(c)
		ok, err := h.IsStaff(c.Request.Context(), u.ID)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		if !ok {
			apierror.Abort(c, apierror.Forbidden())
			return
		}
		if u.Session.AAL != identity.AAL2 {
			apierror.Abort(c, apierror.New(http.StatusForbidden, CodeSecondFactorRequired))
			return
		}
		c.Next()
	}
}

// IsStaff reports whether the user holds the console's Staff permit.
func (h *Handler) IsStaff(ctx context.Context, userID uuid.UUID) (bool, error) {
	return h.keto.Check(ctx, identity.NamespaceStaff, identity.StaffObject, PermitVerify, userID.String())
}

// CodeSecondFactorRequired answers staff signed in with a password only: the web app takes them to
// set up their authenticator app, or to enter its code when it is set up.
const CodeSecondFactorRequired = "staff.second_factor_required"

// Routes mounts the console; group is /staff/api with CSRF and the session.
func (h *Handler) Routes(group *gin.RouterGroup) {
	g := group.Group("", h.RequireStaff())
	g.GET("/organizations", h.List)
	g.GET("/organizations/:org", h.Detail)
	g.GET("/organizations/:org/attachments/:id/file", h.File)
	g.POST("/organizations/:org/documents/:type/approve", h.Approve)
	g.POST("/organizations/:org/documents/:type/reject", h.Reject)
	g.POST("/organizations/:org/enable", h.Enable)
	g.POST("/organizations/:org/plan", h.GrantPlan)
}

// Waiting is an organisation in the review queue.
type Waiting struct {
	ID          uuid.UUID  `json:"id"`
	Name        string     `json:"name"`
	Country     string     `json:"country"`
	Status      string     `json:"status"`
	RequestedAt time.Time  `json:"review_requested_at"`
	DueAt       time.Time  `json:"review_due_at"`
	HoursLeft   int        `json:"hours_left"`
	Overdue     bool       `json:"overdue"`
	RemindedAt  *time.Time `json:"reminded_at"`
}

// List is GET /staff/api/organizations: waiting for review, oldest first, every country.
func (h *Handler) List(c *gin.Context) {
	rows, err := h.directory.Query(c.Request.Context(), queries.Get("Waiting"))
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	now := h.now()
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Waiting, error) {
		var w Waiting
		err := r.Scan(&w.ID, &w.Name, &w.Country, &w.Status, &w.RequestedAt, &w.RemindedAt)
		w.DueAt = w.RequestedAt.Add(document.ReviewTarget)
		w.HoursLeft = document.HoursLeft(w.DueAt, now)
		w.Overdue = !now.Before(w.DueAt)
		return w, err
	})
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"organizations": list})
}

// AuditEntry is one staff action.
type AuditEntry struct {
	ID           int64      `json:"id"`
	StaffUserID  uuid.UUID  `json:"staff_user_id"`
	StaffEmail   string     `json:"staff_email"`
	Action       string     `json:"action"`
	DocumentType *string    `json:"document_type"`
	AttachmentID *uuid.UUID `json:"attachment_id"`
	Reason       *string    `json:"reason"`
	PlanCode     *string    `json:"plan_code"`
	CreatedAt    time.Time  `json:"created_at"`
}

// Review is the organisation's review clock.
type Review struct {
	RequestedAt time.Time  `json:"requested_at"`
	DueAt       time.Time  `json:"due_at"`
	HoursLeft   int        `json:"hours_left"`
	Open        bool       `json:"open"`
	RemindedAt  *time.Time `json:"reminded_at"`
}

// Detail is GET /staff/api/organizations/{org}.
type Detail struct {
	organization.Organization
	Review   *Review      `json:"review"`
	AuditLog []AuditEntry `json:"audit_log"`
}

func (h *Handler) scope(c *gin.Context) (tenants.Scope, error) {
	id, err := uuid.Parse(c.Param("org"))
	if err != nil {
		return tenants.Scope{}, apierror.NotFound()
	}
	return h.docs.Scope(c.Request.Context(), id)
}

func staffURL(orgID uuid.UUID) document.URLFunc {
	return func(id uuid.UUID) string {
		return fmt.Sprintf("/staff/api/organizations/%s/attachments/%s/file", orgID, id)
	}
}

func (h *Handler) detail(c *gin.Context, scope tenants.Scope) (Detail, error) {
	ctx := c.Request.Context()
	o, err := h.orgs.Get(ctx, scope, apierror.Lang(c), staffURL(scope.OrgID))
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Organization: o, AuditLog: []AuditEntry{}}
	var rv Review
	var closed *time.Time
	err = h.directory.QueryRow(ctx, queries.Get("Review"), scope.OrgID).Scan(&rv.RequestedAt, &closed, &rv.RemindedAt)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return d, err
	}
	if err == nil {
		rv.DueAt = rv.RequestedAt.Add(document.ReviewTarget)
		rv.HoursLeft = document.HoursLeft(rv.DueAt, h.now())
		rv.Open = closed == nil
		d.Review = &rv
	}
	rows, err := h.directory.Query(ctx, queries.Get("AuditOf"), scope.OrgID)
	if err != nil {
		return d, err
	}
	d.AuditLog, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (AuditEntry, error) {
		var a AuditEntry
		err := r.Scan(&a.ID, &a.StaffUserID, &a.StaffEmail, &a.Action, &a.DocumentType, &a.AttachmentID, &a.Reason, &a.PlanCode, &a.CreatedAt)
		return a, err
	})
	return d, err
}

func (h *Handler) respond(c *gin.Context, scope tenants.Scope) {
	d, err := h.detail(c, scope)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, d)
}

// Detail is GET /staff/api/organizations/{org}.
func (h *Handler) Detail(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

type entry struct {
	action       string
	documentType *string
	attachmentID *uuid.UUID
	reason       *string
	planCode     *string
}

func (h *Handler) audit(c *gin.Context, orgID uuid.UUID, e entry) (int64, error) {
	u := authz.User(c)
	var id int64
	var at time.Time
	err := h.directory.QueryRow(c.Request.Context(), queries.Get("InsertAudit"),
		u.ID, u.Email, e.action, orgID, e.documentType, e.attachmentID, e.reason, e.planCode).Scan(&id, &at)
	return id, err
}

// File is GET /staff/api/organizations/{org}/attachments/{id}/file; each view is audited.
func (h *Handler) File(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	f, err := h.docs.Open(c.Request.Context(), scope, id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if _, err := h.audit(c, scope.OrgID, entry{action: ActionView, attachmentID: &id}); err != nil {
		_ = f.Reader.Close()
		apierror.Abort(c, err)
		return
	}
	document.WriteFile(c, f)
}

// Approve is POST /staff/api/organizations/{org}/documents/{type}/approve.
func (h *Handler) Approve(c *gin.Context) { h.decide(c, true) }

// Reject is POST /staff/api/organizations/{org}/documents/{type}/reject {reason}.
func (h *Handler) Reject(c *gin.Context) { h.decide(c, false) }

func (h *Handler) decide(c *gin.Context, approve bool) {
	var reason string
	if !approve {
		var in struct {
			Reason string `json:"reason"`
		}
		if err := request.JSON(c, &in); err != nil {
			apierror.Abort(c, err)
			return
		}
		reason = strings.TrimSpace(in.Reason)
		if reason == "" || len([]rune(reason)) > MaxReason {
			apierror.Abort(c, apierror.Validation(map[string]string{"reason": "rejection_reason_required"}))
			return
		}
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	docType := c.Param("type")
	if err := h.docs.Decide(ctx, scope, docType, approve, reason); err != nil {
		apierror.Abort(c, err)
		return
	}
	e := entry{action: ActionApprove, documentType: &docType}
	decision := "approved"
	if !approve {
		e.action, e.reason, decision = ActionReject, &reason, "rejected"
	}
	auditID, err := h.audit(c, scope.OrgID, e)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	review := onboarding.Review{Key: fmt.Sprintf("document_reviewed/%d", auditID), DocumentType: docType, Decision: decision, Reason: reason}
	if err := h.onboarding.DocumentReviewed(ctx, scope.OrgID, review); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

// Enable is POST /staff/api/organizations/{org}/enable: every required document must be approved.
// The onboarding workflow moves the account to enabled in the shard and the directory.
func (h *Handler) Enable(c *gin.Context) {
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := c.Request.Context()
	ov, err := h.docs.Overview(ctx, scope, i18n.Default, document.ManageURL)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if !document.AllApproved(ov) {
		apierror.Abort(c, apierror.New(http.StatusConflict, "documents_not_approved"))
		return
	}
	if err := h.docs.CloseReview(ctx, scope.OrgID); err != nil {
		apierror.Abort(c, err)
		return
	}
	if _, err := h.audit(c, scope.OrgID, entry{action: ActionEnable}); err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.onboarding.Enable(ctx, scope.OrgID); err != nil {
		apierror.Abort(c, err)
		return
	}
	// The workflow applies the change; answer once it has, so the console shows the enabled account.
	if err := waitForStatus(ctx, scope, "enabled", 15*time.Second); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

// GrantPlan is POST /staff/api/organizations/{org}/plan {plan_code, reason}: staff set the plan an
// organisation paid for outside the product (a bank transfer, an agreement), with the reason kept
// in the audit log.
func (h *Handler) GrantPlan(c *gin.Context) {
	var in struct {
		PlanCode string `json:"plan_code"`
		Reason   string `json:"reason"`
	}
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	reason := strings.TrimSpace(in.Reason)
	if reason == "" || len([]rune(reason)) > MaxReason {
		apierror.Abort(c, apierror.Validation(map[string]string{"reason": "staff.plan_reason_required"}))
		return
	}
	scope, err := h.scope(c)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	plan := strings.TrimSpace(in.PlanCode)
	if err := h.plans.Grant(c.Request.Context(), scope.OrgID, plan); err != nil {
		apierror.Abort(c, err)
		return
	}
	if _, err := h.audit(c, scope.OrgID, entry{action: ActionPlan, reason: &reason, planCode: &plan}); err != nil {
		apierror.Abort(c, err)
		return
	}
	h.respond(c, scope)
}

// waitForStatus polls the organisation's status in its shard until it is want, for at most limit.
func waitForStatus(ctx context.Context, scope tenants.Scope, want string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var status string
		if err := scope.QueryRow(ctx, queries.Get("OrganizationStatus"), scope.OrgID).Scan(&status); err != nil {
			return err
		}
		if status == want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("organization %s still %s after %s", scope.OrgID, status, limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func init() {
	i18n.Register(i18n.Catalog{
		"rejection_reason_required": {
			i18n.ES: "Escribe el motivo del rechazo (hasta 500 caracteres); la organización lo verá.",
			i18n.EN: "Write the reason for the rejection (up to 500 characters); the organisation will see it.",
			i18n.PT: "Escreva o motivo da rejeição (até 500 caracteres); a organização verá.",
		},
		"staff.plan_reason_required": {
			i18n.ES: "Escribe por qué asignas este plan (hasta 500 caracteres), por ejemplo el pago recibido.",
			i18n.EN: "Write why you are granting this plan (up to 500 characters), for example the payment received.",
			i18n.PT: "Escreva por que você atribui este plano (até 500 caracteres), por exemplo o pagamento recebido.",
		},
		CodeSecondFactorRequired: {
			i18n.ES: "El panel de staff requiere verificación en dos pasos: configura tu app de autenticación o ingresa su código.",
			i18n.EN: "The staff console requires two-step verification: set up your authenticator app or enter its code.",
			i18n.PT: "O painel da equipe exige verificação em duas etapas: configure seu app autenticador ou informe o código dele.",
		},
		"documents_not_approved": {
			i18n.ES: "Aprueba todos los documentos requeridos antes de habilitar la cuenta.",
			i18n.EN: "Approve every required document before enabling the account.",
			i18n.PT: "Aprove todos os documentos obrigatórios antes de habilitar a conta.",
		},
	})
}
