package user

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/account"
	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
)

// An invitation is the offer of a role in an organisation to an e-mail address. It makes no
// membership and tells the organisation nothing about who holds the address: the membership is
// made only when someone accepts with the token e-mailed to the address, and either proves control
// of it by that token alone (no verified account for the address yet: they choose their name and
// password, and any unverified identity for the address is taken over, its sessions ended) or is
// signed in with a verified e-mail equal to the invited one.

// TemplateInvitation is the outbox template type of invitation e-mails.
const TemplateInvitation = "user_invitation"

// newToken makes an invitation link's secret; only its hash is stored.
func newToken() (token string, hash []byte) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// sendInvitation e-mails the link to the accept page, in the inviting administrator's language.
func (h *Handler) sendInvitation(ctx context.Context, inv invitation, token string) error {
	org, err := h.tenants.GetOrganization(ctx, inv.OrganizationID)
	if err != nil {
		return err
	}
	link := h.cfg.PublicURL + "/account/invitation?token=" + url.QueryEscape(token)
	inviter := authz.CurrentUser(ctx)
	l := i18n.FromContext(ctx)
	days := int(InvitationLifetime.Hours() / 24)
	data, _ := json.Marshal(map[string]any{
		"invitation_url":    link,
		"organization_name": org.Name,
		"invited_by":        inviter.Email,
		"lang":              string(l),
	})
	msg, err := outbox.Compose(inv.Email, TemplateInvitation, l, map[string]any{
		"Inviter": fullName(inviter.FirstName, inviter.LastName, inviter.Email), "Org": org.Name,
		"URL": link, "Days": days,
	})
	if err != nil {
		return err
	}
	msg.TemplateData, msg.Code = data, token
	_, err = h.outbox.Send(ctx, msg)
	if err != nil {
		return fmt.Errorf("invitation e-mail: %w", err)
	}
	return nil
}

func fullName(first, last, fallback string) string {
	if first == "" && last == "" {
		return fallback
	}
	return first + " " + last
}

// pendingInvitation is an invitation found by its token.
type pendingInvitation struct {
	invitation
	OrganizationName string
}

var (
	errInvitationNotFound = apierror.New(http.StatusNotFound, "invitation.not_found")
	errInvitationExpired  = apierror.New(http.StatusGone, "invitation.expired")
)

// byToken finds the invitation of a link's token: unknown, used and cancelled tokens are all
// not_found; an expired one says so, so the person knows to ask for a new link.
func (h *Handler) byToken(ctx context.Context, token string) (pendingInvitation, error) {
	token = strings.TrimSpace(token)
	if token == "" || len(token) > 100 {
		return pendingInvitation{}, errInvitationNotFound
	}
	row, err := dirdb.Store(h.tenants.Directory()).InvitationByToken(ctx, hashToken(token))
	p := pendingInvitation{invitation: row.Invitation, OrganizationName: row.OrganizationName}
	switch {
	case errors.Is(err, dberr.ErrNotFound):
		return p, errInvitationNotFound
	case err != nil:
		return p, err
	case time.Now().After(p.ExpiresAt):
		return p, errInvitationExpired
	}
	return p, nil
}

// accept uses the invitation up and makes the membership (directory row and Keto relation) in one
// transaction: a token accepted twice at once makes one membership, and a failure keeps the token.
func (h *Handler) accept(ctx context.Context, p pendingInvitation, userID uuid.UUID) error {
	st := store{pool: h.tenants.Directory(), orgID: p.OrganizationID}
	return st.inTx(ctx, func(q *dirdb.Queries) error {
		n, err := q.ClaimInvitation(ctx, dirdb.ClaimInvitationParams{ID: p.ID, TokenHash: p.TokenHash})
		if err != nil {
			return err
		}
		if n == 0 {
			return errInvitationNotFound
		}
		_, err = q.InsertMember(ctx, dirdb.InsertMemberParams{UserID: userID, OrganizationID: p.OrganizationID, Role: p.Role})
		if dberr.IsConflict(err, "") {
			return apierror.New(http.StatusConflict, "user.already_member")
		}
		if err != nil {
			return err
		}
		return h.keto.Grant(ctx, identity.NamespaceOrganization, p.OrganizationID.String(), relationOf[p.Role], userID.String())
	})
}

// InvitationView is what the accept page shows to whoever holds the link.
type InvitationView struct {
	Email            string    `json:"email"`
	FirstName        string    `json:"first_name"`
	LastName         string    `json:"last_name"`
	Role             string    `json:"role"`
	OrganizationName string    `json:"organization_name"`
	InvitedBy        string    `json:"invited_by"`
	ExpiresAt        time.Time `json:"expires_at"`
	// Account is "existing" when the address has a verified account (sign in to accept), "new" when
	// accepting means choosing a name and password.
	Account string `json:"account"`
}

// TokenRequest is {token}: the token stays out of URLs and access logs.
type TokenRequest struct {
	Token string `json:"token"`
}

// verifiedIdentity returns the identity of the address when its e-mail is verified.
func (h *Handler) verifiedIdentity(ctx context.Context, email string) (id uuid.UUID, found, verified bool, err error) {
	id, found, err = h.kratos.FindByEmail(ctx, email)
	if err != nil || !found {
		return id, found, false, err
	}
	i, err := h.kratos.Get(ctx, id)
	return id, true, err == nil && i.EmailVerified, err
}

// Shown is the answer of the show call.
type Shown struct {
	Invitation InvitationView `json:"invitation"`
}

// showInvitation is POST /internal/api/invitations/show {token}.
func (h *Handler) showInvitation(ctx context.Context, r *TokenRequest) (*Shown, error) {
	p, err := h.byToken(ctx, r.Token)
	if err != nil {
		return nil, err
	}
	_, _, verified, err := h.verifiedIdentity(ctx, p.Email)
	if err != nil {
		return nil, err
	}
	v := InvitationView{
		Email: p.Email, FirstName: p.FirstName, LastName: p.LastName, Role: p.Role,
		OrganizationName: p.OrganizationName, ExpiresAt: p.ExpiresAt, Account: "new",
	}
	if verified {
		v.Account = "existing"
	}
	if u, err := h.kratos.User(ctx, p.InvitedBy); err == nil {
		v.InvitedBy = strings.TrimSpace(fullName(u.FirstName, u.LastName, u.Email))
	}
	return &Shown{Invitation: v}, nil
}

type acceptNewIn struct {
	Token     string `json:"token"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Password  string `json:"password"`
}

// acceptAsNew is POST /internal/api/invitations/accept {token, first_name, last_name, password}:
// the token proves control of the address, so the person gets an account with a verified e-mail
// (or takes over an identity nobody verified: name and password replaced, its sessions ended),
// the membership, and a session.
func (h *Handler) acceptAsNew(c *gin.Context) {
	ctx := c.Request.Context()
	var in acceptNewIn
	if err := request.JSON(c, &in); err != nil {
		apierror.Abort(c, err)
		return
	}
	fields := identity.NameFields("user", strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName))
	if code := account.CheckPassword(in.Password); code != "" {
		fields["password"] = code
	}
	if len(fields) > 0 {
		apierror.Abort(c, apierror.Validation(fields))
		return
	}
	in.FirstName, in.LastName = strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName)
	p, err := h.byToken(ctx, in.Token)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	id, found, verified, err := h.verifiedIdentity(ctx, p.Email)
	switch {
	case err != nil:
		apierror.Abort(c, err)
		return
	case verified: // the address has an account someone proved: its owner signs in to accept
		apierror.Abort(c, apierror.New(http.StatusConflict, "invitation.sign_in_required"))
		return
	case found:
		err = h.takeOver(ctx, id, in)
	default:
		id, err = h.kratos.CreateUser(ctx, identity.NewUser{
			Email: p.Email, FirstName: in.FirstName, LastName: in.LastName, Password: in.Password, Verified: true,
		})
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if err := h.accept(ctx, p, id); err != nil {
		if !found { // the token still works: a retry must not find a verified account it cannot use
			if derr := h.kratos.Delete(context.WithoutCancel(ctx), id); derr != nil {
				slog.ErrorContext(ctx, "undo invited identity", "error", derr, "identity", id)
			}
		}
		apierror.Abort(c, err)
		return
	}
	jar := identity.NewJar(c.GetHeader("Cookie"))
	if _, err := h.flows.Login(ctx, jar, p.Email, in.Password); err != nil {
		apierror.Abort(c, err)
		return
	}
	for _, sc := range jar.SetCookies {
		c.Writer.Header().Add("Set-Cookie", sc)
	}
	c.JSON(http.StatusOK, gin.H{"redirect_to": "/manage/dashboard"})
}

// takeOver gives an identity whose e-mail nobody verified to the person who just proved control of
// it: whoever made the identity (anyone may type any address) loses its password and sessions.
func (h *Handler) takeOver(ctx context.Context, id uuid.UUID, in acceptNewIn) error {
	if err := h.kratos.SetPassword(ctx, id, in.Password); err != nil {
		return err
	}
	if err := h.kratos.Patch(ctx, id, identity.SetTrait("/traits/name", map[string]any{"first": in.FirstName, "last": in.LastName})); err != nil {
		return err
	}
	if err := h.kratos.MarkEmailVerified(ctx, id); err != nil {
		return err
	}
	return h.kratos.RevokeSessions(ctx, id)
}

// Accepted is where the web app goes once an invitation is accepted, and the organisation joined.
type Accepted struct {
	RedirectTo   string `json:"redirect_to"`
	Organization struct {
		UUID string `json:"uuid"`
		Name string `json:"name"`
	} `json:"organization"`
}

// acceptSignedIn is POST /account/api/invitations/accept {token}: the session's verified e-mail
// (Authenticate refuses unverified ones) must be the invited address.
func (h *Handler) acceptSignedIn(ctx context.Context, r *TokenRequest) (*Accepted, error) {
	p, err := h.byToken(ctx, r.Token)
	if err != nil {
		return nil, err
	}
	u := authz.CurrentUser(ctx)
	if !u.EmailVerified || !strings.EqualFold(u.Email, p.Email) {
		return nil, apierror.New(http.StatusForbidden, "invitation.wrong_account")
	}
	if err := h.accept(ctx, p, u.ID); err != nil {
		return nil, err
	}
	out := &Accepted{RedirectTo: "/manage/dashboard"}
	out.Organization.UUID, out.Organization.Name = p.OrganizationID.String(), p.OrganizationName
	return out, nil
}
