// Package staff is the verification console's API (/staff/api): product staff (Keto Staff
// verify_organizations) list organisations waiting for review across every country, open one,
// view its files, approve or reject each document, enable the account and grant a plan paid outside
// the product. Every action is kept in the directory's audit log and shown with the organisation.
package staff

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/organization"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/onboarding"
)

// PermitVerify is the Staff permit the console needs.
const PermitVerify = "verify_organizations"

// Audit actions.
const (
	ActionApprove  = "approve_document"
	ActionReject   = "reject_document"
	ActionEnable   = "enable_account"
	ActionView     = "view_attachment"
	ActionPlan     = "grant_plan"
	ActionFeatures = "set_features"
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
	directory  *dirdb.Queries
	docs       *document.Service
	orgs       *organization.Service
	keto       PermissionChecker
	onboarding Onboarding
	plans      Plans
	now        func() time.Time
}

// NewHandler builds the handler.
func NewHandler(directory *pgxpool.Pool, d *document.Service, o *organization.Service, k PermissionChecker, ob Onboarding, p Plans) *Handler {
	return &Handler{directory: dirdb.Store(directory), docs: d, orgs: o, keto: k, onboarding: ob, plans: p, now: time.Now}
}

// RequireStaff lets only Keto Staff members with verify_organizations through (403 otherwise), and
// only with a session that passed a second factor (AAL2): a leaked staff password alone opens no
// organisation's files. Authenticate must run first.
func (h *Handler) RequireStaff() gin.HandlerFunc {
	return func(c *gin.Context) {
		u := authz.User(c)
		ok, err := h.IsStaff(c.Request.Context(), u.ID)
		if !authz.Permitted(c, ok, err) {
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

// Mount mounts the console on /staff/api (CSRF and the session), behind RequireStaff.
func (h *Handler) Mount(groups endpoint.Groups) {
	g := groups.Staff.Group("", h.RequireStaff())
	g.GET("/organizations", endpoint.Handle(h.List))
	g.GET("/organizations/:org", endpoint.Handle(h.Detail))
	g.GET("/organizations/:org/attachments/:id/file", h.File) // streams the file: a plain handler
	g.POST("/organizations/:org/documents/:type/approve", endpoint.Handle(h.Approve))
	g.POST("/organizations/:org/documents/:type/reject", endpoint.Handle(h.Reject))
	g.POST("/organizations/:org/enable", endpoint.Handle(h.Enable))
	g.POST("/organizations/:org/plan", endpoint.Handle(h.GrantPlan))
	g.POST("/organizations/:org/features", endpoint.Handle(h.SetFeatures))
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

// WaitingList is the review queue.
type WaitingList struct {
	Organizations []Waiting `json:"organizations"`
}

// List is GET /staff/api/organizations: waiting for review, oldest first, every country.
func (h *Handler) List(ctx context.Context, _ *struct{}) (*WaitingList, error) {
	rows, err := h.directory.OrganizationsWaitingForReview(ctx)
	if err != nil {
		return nil, err
	}
	now := h.now()
	out := &WaitingList{Organizations: make([]Waiting, len(rows))}
	for i, r := range rows {
		due := r.RequestedAt.Add(document.ReviewTarget)
		out.Organizations[i] = Waiting{
			ID: r.OrganizationID, Name: r.Name, Country: r.Country, Status: r.Status, RequestedAt: r.RequestedAt,
			DueAt: due, HoursLeft: document.HoursLeft(due, now), Overdue: !now.Before(due), RemindedAt: r.RemindedAt,
		}
	}
	return out, nil
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
	Features     []string   `json:"features,omitempty"`
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

// OrgRequest names the organisation under review; it is a string so a malformed id answers 404
// like an unknown one.
type OrgRequest struct {
	Org string `path:"org" json:"-"`
}

func (h *Handler) scope(ctx context.Context, org string) (tenants.Scope, error) {
	id, err := uuid.Parse(org)
	if err != nil {
		return tenants.Scope{}, apierror.NotFound()
	}
	return h.docs.Scope(ctx, id)
}

func staffURL(orgID uuid.UUID) document.URLFunc {
	return func(id uuid.UUID) string {
		return fmt.Sprintf("/staff/api/organizations/%s/attachments/%s/file", orgID, id)
	}
}

// detail is the organisation as the console shows it, with its review clock and audit log.
func (h *Handler) detail(ctx context.Context, scope tenants.Scope) (*Detail, error) {
	o, err := h.orgs.Get(ctx, scope, i18n.FromContext(ctx), staffURL(scope.OrgID))
	if err != nil {
		return nil, err
	}
	d := &Detail{Organization: o, AuditLog: []AuditEntry{}}
	r, err := h.directory.DocumentReview(ctx, scope.OrgID)
	switch {
	case err == nil:
		due := r.RequestedAt.Add(document.ReviewTarget)
		d.Review = &Review{RequestedAt: r.RequestedAt, DueAt: due, HoursLeft: document.HoursLeft(due, h.now()),
			Open: r.ClosedAt == nil, RemindedAt: r.RemindedAt}
	case !errors.Is(err, dberr.ErrNotFound):
		return nil, err
	}
	log, err := h.directory.StaffAuditOf(ctx, scope.OrgID)
	if err != nil {
		return nil, err
	}
	for _, a := range log {
		d.AuditLog = append(d.AuditLog, AuditEntry{ID: a.ID, StaffUserID: a.StaffUserID, StaffEmail: a.StaffEmail,
			Action: a.Action, DocumentType: a.DocumentType, AttachmentID: a.AttachmentID, Reason: a.Reason,
			PlanCode: a.PlanCode, Features: a.Features, CreatedAt: a.CreatedAt})
	}
	return d, nil
}

// Detail is GET /staff/api/organizations/{org}.
func (h *Handler) Detail(ctx context.Context, r *OrgRequest) (*Detail, error) {
	scope, err := h.scope(ctx, r.Org)
	if err != nil {
		return nil, err
	}
	return h.detail(ctx, scope)
}

type entry struct {
	action       string
	documentType *string
	attachmentID *uuid.UUID
	reason       *string
	planCode     *string
	features     []string
}

func (h *Handler) audit(ctx context.Context, orgID uuid.UUID, e entry) (int64, error) {
	u := authz.CurrentUser(ctx)
	return h.directory.InsertStaffAudit(ctx, dirdb.InsertStaffAuditParams{
		StaffUserID: u.ID, StaffEmail: u.Email, Action: e.action, OrganizationID: orgID,
		DocumentType: e.documentType, AttachmentID: e.attachmentID, Reason: e.reason, PlanCode: e.planCode,
		Features: e.features,
	})
}

// File is GET /staff/api/organizations/{org}/attachments/{id}/file; each view is audited.
func (h *Handler) File(c *gin.Context) {
	scope, err := h.scope(c.Request.Context(), c.Param("org"))
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
	if _, err := h.audit(c.Request.Context(), scope.OrgID, entry{action: ActionView, attachmentID: &id}); err != nil {
		_ = f.Reader.Close()
		apierror.Abort(c, err)
		return
	}
	document.WriteFile(c, f)
}

// DocumentRequest names a document of the organisation.
type DocumentRequest struct {
	OrgRequest
	Type string `path:"type" json:"-"`
}

// RejectRequest is a document and the reason the organisation will read.
type RejectRequest struct {
	DocumentRequest
	Reason string `json:"reason"`
}

// Validate requires a reason.
func (r *RejectRequest) Validate() error {
	return checkReason(&r.Reason, "staff.rejection_reason_required")
}

// checkReason trims a reason and requires one of at most MaxReason characters.
func checkReason(reason *string, code string) error {
	*reason = strings.TrimSpace(*reason)
	if *reason == "" || len([]rune(*reason)) > MaxReason {
		return apierror.Validation(map[string]string{"reason": code})
	}
	return nil
}

// Approve is POST /staff/api/organizations/{org}/documents/{type}/approve.
func (h *Handler) Approve(ctx context.Context, r *DocumentRequest) (*Detail, error) {
	return h.decide(ctx, r, true, "")
}

// Reject is POST /staff/api/organizations/{org}/documents/{type}/reject {reason}.
func (h *Handler) Reject(ctx context.Context, r *RejectRequest) (*Detail, error) {
	return h.decide(ctx, &r.DocumentRequest, false, r.Reason)
}

// decide records the decision on the document, audits it and tells onboarding.
func (h *Handler) decide(ctx context.Context, r *DocumentRequest, approve bool, reason string) (*Detail, error) {
	scope, err := h.scope(ctx, r.Org)
	if err != nil {
		return nil, err
	}
	if err := h.docs.Decide(ctx, scope, r.Type, approve, reason); err != nil {
		return nil, err
	}
	e := entry{action: ActionApprove, documentType: &r.Type}
	decision := "approved"
	if !approve {
		e.action, e.reason, decision = ActionReject, &reason, "rejected"
	}
	auditID, err := h.audit(ctx, scope.OrgID, e)
	if err != nil {
		return nil, err
	}
	review := onboarding.Review{Key: fmt.Sprintf("document_reviewed/%d", auditID), DocumentType: r.Type, Decision: decision, Reason: reason}
	if err := h.onboarding.DocumentReviewed(ctx, scope.OrgID, review); err != nil {
		return nil, err
	}
	return h.detail(ctx, scope)
}

// Enable is POST /staff/api/organizations/{org}/enable: every required document must be approved.
// The onboarding workflow moves the account to enabled in the shard and the directory.
func (h *Handler) Enable(ctx context.Context, r *OrgRequest) (*Detail, error) {
	scope, err := h.scope(ctx, r.Org)
	if err != nil {
		return nil, err
	}
	ov, err := h.docs.Overview(ctx, scope, i18n.Default, document.ManageURL)
	if err != nil {
		return nil, err
	}
	if !document.AllApproved(ov) {
		return nil, apierror.New(http.StatusConflict, "staff.documents_not_approved")
	}
	if err := h.docs.CloseReview(ctx, scope.OrgID); err != nil {
		return nil, err
	}
	if _, err := h.audit(ctx, scope.OrgID, entry{action: ActionEnable}); err != nil {
		return nil, err
	}
	if err := h.onboarding.Enable(ctx, scope.OrgID); err != nil {
		return nil, err
	}
	// The workflow applies the change; answer once it has, so the console shows the enabled account.
	if err := waitForStatus(ctx, scope, "enabled", 15*time.Second); err != nil {
		return nil, err
	}
	return h.detail(ctx, scope)
}

// GrantPlanRequest is the plan and why staff grant it.
type GrantPlanRequest struct {
	OrgRequest
	PlanCode string `json:"plan_code"`
	Reason   string `json:"reason"`
}

// Validate requires a reason.
func (r *GrantPlanRequest) Validate() error {
	return checkReason(&r.Reason, "staff.plan_reason_required")
}

// GrantPlan is POST /staff/api/organizations/{org}/plan {plan_code, reason}: staff set the plan an
// organisation paid for outside the product (a bank transfer, an agreement), with the reason kept
// in the audit log.
func (h *Handler) GrantPlan(ctx context.Context, r *GrantPlanRequest) (*Detail, error) {
	scope, err := h.scope(ctx, r.Org)
	if err != nil {
		return nil, err
	}
	plan := strings.TrimSpace(r.PlanCode)
	if err := h.plans.Grant(ctx, scope.OrgID, plan); err != nil {
		return nil, err
	}
	if _, err := h.audit(ctx, scope.OrgID, entry{action: ActionPlan, reason: &r.Reason, planCode: &plan}); err != nil {
		return nil, err
	}
	return h.detail(ctx, scope)
}

// waitForStatus polls the organisation's status in its shard until it is want, for at most limit.
func waitForStatus(ctx context.Context, scope tenants.Scope, want string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
		if err != nil {
			return err
		}
		if org.Status == want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("organization %s still %s after %s", scope.OrgID, org.Status, limit)
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
		"staff.rejection_reason_required": {
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
		"staff.documents_not_approved": {
			i18n.ES: "Aprueba todos los documentos requeridos antes de habilitar la cuenta.",
			i18n.EN: "Approve every required document before enabling the account.",
			i18n.PT: "Aprove todos os documentos obrigatórios antes de habilitar a conta.",
		},
	})
}
