package agency

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// Roles of an agency's people and their Keto relation on the agency.
var roleRelation = map[string]string{
	"manager":    identity.RelationManagers,
	"operator":   identity.RelationOperators,
	"supervisor": identity.RelationSupervisors,
}

// peopleRelations are every relation a person can hold on an agency: roles and grants.
var peopleRelations = []string{identity.RelationManagers, identity.RelationOperators, identity.RelationSupervisors,
	identity.RelationAcquisition, identity.RelationManagement}

// User is one of an agency's people as the agency page shows them.
type User struct {
	UUID        string     `json:"uuid"`
	Email       string     `json:"email"`
	FirstName   string     `json:"first_name"`
	LastName    string     `json:"last_name"`
	Role        string     `json:"role"`
	Acquisition bool       `json:"acquisition"`
	Management  bool       `json:"management"`
	Status      string     `json:"status"` // active | discarded
	DiscardedAt *time.Time `json:"discarded_at"`
	CreatedAt   time.Time  `json:"created_at"`
}

func userView(m dirdb.AgencyMember, u identity.User) User {
	status := "active"
	if m.DiscardedAt != nil {
		status = "discarded"
	}
	return User{UUID: m.UserID.String(), Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, Role: m.Role,
		Acquisition: m.Acquisition, Management: m.Management, Status: status, DiscardedAt: m.DiscardedAt, CreatedAt: m.CreatedAt}
}

// people lists an agency's people with their names from Kratos.
func (h *Handler) people(ctx context.Context, orgID, agencyID uuid.UUID) ([]User, error) {
	members, err := h.directory().ListAgencyMembers(ctx, dirdb.ListAgencyMembersParams{OrganizationID: orgID, AgencyID: agencyID})
	if err != nil {
		return nil, err
	}
	users, err := identity.UsersOf(ctx, h.kratos, members, func(m dirdb.AgencyMember) uuid.UUID { return m.UserID })
	if err != nil {
		return nil, err
	}
	out := make([]User, len(members))
	for i, m := range members {
		out[i] = userView(m, users[m.UserID])
	}
	return out, nil
}

// Access is a person's role and the organisation's grants to them.
type Access struct {
	Role        string `json:"role"`
	Acquisition bool   `json:"acquisition"`
	Management  bool   `json:"management"`
}

func (a *Access) check(fields map[string]string) {
	a.Role = strings.TrimSpace(a.Role)
	switch _, ok := roleRelation[a.Role]; {
	case a.Role == "":
		fields["role"] = "agency.role_required"
	case !ok:
		fields["role"] = "agency.role_invalid"
	}
}

// relations are the Keto relations the access gives on the agency.
func (a Access) relations() []string {
	rels := []string{roleRelation[a.Role]}
	if a.Acquisition {
		rels = append(rels, identity.RelationAcquisition)
	}
	if a.Management {
		rels = append(rels, identity.RelationManagement)
	}
	return rels
}

// NewUserRequest is POST /manage/api/agencies/:token/users.
type NewUserRequest struct {
	AgencyRequest
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Access
}

// Validate trims and checks the fields.
func (r *NewUserRequest) Validate() error {
	r.Email = strings.ToLower(strings.TrimSpace(r.Email))
	r.FirstName, r.LastName = strings.TrimSpace(r.FirstName), strings.TrimSpace(r.LastName)
	fields := identity.InviteeFields("agency", r.Email, r.FirstName, r.LastName)
	r.Access.check(fields)
	return apierror.Invalid(fields)
}

// UserReply is the answer of the calls on one person.
type UserReply struct {
	User User `json:"user"`
}

type createdUser struct{ UserReply }

func (createdUser) StatusCode() int { return http.StatusCreated }

// TemplateWelcome is the outbox template of the e-mail a new agency person gets.
const TemplateWelcome = "agency_welcome"

// createUser adds a person to the agency. Someone without an Aporta account gets one with no
// password and an e-mail telling them to choose it through password recovery, which proves they
// control the address before anyone can sign in. An account whose e-mail nobody verified is
// refused: its maker (anyone may type any address) must not inherit the agency's access.
func (h *Handler) createUser(ctx context.Context, r *NewUserRequest) (*createdUser, error) {
	scope, a, err := h.administered(ctx, r.AgencyRequest)
	if err != nil {
		return nil, err
	}
	if err := live(a); err != nil {
		return nil, err
	}
	id, found, err := h.kratos.FindByEmail(ctx, r.Email)
	if err != nil {
		return nil, err
	}
	made := false
	switch {
	case found:
		i, err := h.kratos.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if !i.EmailVerified {
			return nil, apierror.New(http.StatusConflict, "agency.email_unavailable")
		}
	default:
		id, err = h.kratos.CreateUser(ctx, identity.NewUser{Email: r.Email, FirstName: r.FirstName, LastName: r.LastName, Verified: true})
		if errors.Is(err, identity.ErrExists) {
			return nil, apierror.New(http.StatusConflict, "agency.email_unavailable")
		}
		if err != nil {
			return nil, err
		}
		made = true
	}
	m, err := h.directory().InsertAgencyMember(ctx, dirdb.InsertAgencyMemberParams{UserID: id, OrganizationID: scope.OrgID,
		AgencyID: a.ID, Role: r.Role, Acquisition: r.Acquisition, Management: r.Management})
	if dberr.IsConflict(err, "") {
		return nil, apierror.New(http.StatusConflict, "agency.user_exists")
	}
	if err != nil {
		if made {
			_ = h.kratos.Delete(context.WithoutCancel(ctx), id)
		}
		return nil, err
	}
	if err := h.grant(ctx, a.ID, id, r.Access); err != nil {
		return nil, err
	}
	if err := h.welcome(ctx, scope, a.Name, r.Email); err != nil {
		return nil, err
	}
	u, err := h.kratos.User(ctx, id)
	if err != nil {
		return nil, err
	}
	return &createdUser{UserReply{User: userView(m, u)}}, nil
}

// welcome e-mails the new person where to choose their password and sign in.
func (h *Handler) welcome(ctx context.Context, scope tenants.Scope, agencyName, email string) error {
	org, err := h.tenants.GetOrganization(ctx, scope.OrgID)
	if err != nil {
		return err
	}
	msg, err := outbox.Compose(email, TemplateWelcome, i18n.FromContext(ctx), map[string]any{
		"Agency": agencyName, "Org": org.Name, "URL": h.publicURL + "/account/recovery", "Login": h.publicURL + "/agency",
	})
	if err != nil {
		return err
	}
	_, err = h.outbox.Send(ctx, msg)
	return err
}

// grant writes the Keto relations of the access and removes the others.
func (h *Handler) grant(ctx context.Context, agencyID, userID uuid.UUID, a Access) error {
	keep := map[string]bool{}
	for _, rel := range a.relations() {
		keep[rel] = true
		if err := h.keto.Grant(ctx, identity.NamespaceAgency, agencyID.String(), rel, userID.String()); err != nil {
			return err
		}
	}
	for _, rel := range peopleRelations {
		if !keep[rel] {
			if err := h.keto.Revoke(ctx, identity.NamespaceAgency, agencyID.String(), rel, userID.String()); err != nil {
				return err
			}
		}
	}
	return nil
}

// revokeAll removes every relation the person has on the agency.
func (h *Handler) revokeAll(ctx context.Context, agencyID, userID uuid.UUID) error {
	for _, rel := range peopleRelations {
		if err := h.keto.Revoke(ctx, identity.NamespaceAgency, agencyID.String(), rel, userID.String()); err != nil {
			return err
		}
	}
	return nil
}

// UserRequest names one of an agency's people.
type UserRequest struct {
	AgencyRequest
	UUID string `path:"uuid" json:"-"`
}

// member reads the administered agency's person (404 for anyone else).
func (h *Handler) member(ctx context.Context, r UserRequest) (tenants.Scope, dirdb.AgencyMember, error) {
	scope, a, err := h.administered(ctx, r.AgencyRequest)
	if err != nil {
		return scope, dirdb.AgencyMember{}, err
	}
	id, err := uuid.Parse(r.UUID)
	if err != nil {
		return scope, dirdb.AgencyMember{}, apierror.NotFound()
	}
	m, err := h.directory().AgencyMember(ctx, dirdb.AgencyMemberParams{OrganizationID: scope.OrgID, AgencyID: a.ID, UserID: id})
	if err != nil {
		return scope, m, err
	}
	return scope, m, live(a)
}

func (h *Handler) reply(ctx context.Context, m dirdb.AgencyMember) (*UserReply, error) {
	u, err := h.kratos.User(ctx, m.UserID)
	if err != nil {
		return nil, err
	}
	return &UserReply{User: userView(m, u)}, nil
}

// EditUserRequest is PATCH /manage/api/agencies/:token/users/:uuid {role, acquisition, management}.
type EditUserRequest struct {
	UserRequest
	Access
}

// Validate checks the role.
func (r *EditUserRequest) Validate() error {
	fields := map[string]string{}
	r.Access.check(fields)
	return apierror.Invalid(fields)
}

// editUser changes a person's role and grants; a discarded person keeps no relation until reactivated.
func (h *Handler) editUser(ctx context.Context, r *EditUserRequest) (*UserReply, error) {
	scope, m, err := h.member(ctx, r.UserRequest)
	if err != nil {
		return nil, err
	}
	m, err = h.directory().UpdateAgencyMember(ctx, dirdb.UpdateAgencyMemberParams{OrganizationID: scope.OrgID, AgencyID: m.AgencyID,
		UserID: m.UserID, Role: r.Role, Acquisition: r.Acquisition, Management: r.Management})
	if err != nil {
		return nil, err
	}
	if m.DiscardedAt == nil {
		if err := h.grant(ctx, m.AgencyID, m.UserID, r.Access); err != nil {
			return nil, err
		}
	}
	return h.reply(ctx, m)
}

// discardUser is DELETE /manage/api/agencies/:token/users/:uuid: the person loses every relation on
// the agency at once; their sessions end too, unless they still belong to an organisation or another
// agency (their account is theirs, not the agency's).
func (h *Handler) discardUser(ctx context.Context, r *UserRequest) (*UserReply, error) {
	scope, m, err := h.member(ctx, *r)
	if err != nil {
		return nil, err
	}
	m, err = h.directory().SetAgencyMemberDiscarded(ctx, dirdb.SetAgencyMemberDiscardedParams{OrganizationID: scope.OrgID,
		AgencyID: m.AgencyID, UserID: m.UserID, Discarded: true})
	if err != nil {
		return nil, err
	}
	if err := h.revokeAll(ctx, m.AgencyID, m.UserID); err != nil {
		return nil, err
	}
	if err := h.signOutIfNowhere(ctx, m.UserID); err != nil {
		return nil, err
	}
	return h.reply(ctx, m)
}

// signOutIfNowhere ends the person's sessions when they no longer belong anywhere.
func (h *Handler) signOutIfNowhere(ctx context.Context, userID uuid.UUID) error {
	agencies, err := h.directory().AgenciesOfUser(ctx, userID)
	if err != nil {
		return err
	}
	orgs, err := h.tenants.MembershipsOf(ctx, userID)
	if err != nil {
		return err
	}
	if len(agencies) > 0 || len(orgs) > 0 {
		return nil
	}
	return h.kratos.RevokeSessions(ctx, userID)
}

// reactivateUser is POST /manage/api/agencies/:token/users/:uuid/reactivate.
func (h *Handler) reactivateUser(ctx context.Context, r *UserRequest) (*UserReply, error) {
	scope, m, err := h.member(ctx, *r)
	if err != nil {
		return nil, err
	}
	m, err = h.directory().SetAgencyMemberDiscarded(ctx, dirdb.SetAgencyMemberDiscardedParams{OrganizationID: scope.OrgID,
		AgencyID: m.AgencyID, UserID: m.UserID, Discarded: false})
	if err != nil {
		return nil, err
	}
	if err := h.grant(ctx, m.AgencyID, m.UserID, Access{Role: m.Role, Acquisition: m.Acquisition, Management: m.Management}); err != nil {
		return nil, err
	}
	return h.reply(ctx, m)
}
