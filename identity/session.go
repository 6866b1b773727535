package identity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	kratos "github.com/ory/kratos-client-go"
)

// User is the signed-in person as the API sees them.
type User struct {
	ID            uuid.UUID
	Email         string
	Phone         string
	FirstName     string
	LastName      string
	RoleArea      string
	EmailVerified bool
	PhoneVerified bool
	// Session is the session the request came with (Sessions.FromCookie); zero for identities read
	// through the admin API.
	Session Session
}

// Session is what the API needs to know of a Kratos session.
type Session struct {
	ID              uuid.UUID
	AuthenticatedAt time.Time
	AAL             string // "aal1" (one factor) or AAL2
}

// AAL2 is the assurance level of a session that passed a second factor too.
const AAL2 = "aal2"

// PrivilegedMaxAge mirrors selfservice.flows.settings.privileged_session_max_age in
// deploy/kratos/kratos.yml: sensitive changes need a login at most this old.
const PrivilegedMaxAge = 15 * time.Minute

// Privileged reports whether the person signed in (or re-entered their password) recently enough
// for a sensitive change.
func (s Session) Privileged(now time.Time) bool {
	return !s.AuthenticatedAt.IsZero() && now.Sub(s.AuthenticatedAt) <= PrivilegedMaxAge
}

// ErrNoSession is returned when the request carries no valid Kratos session.
var ErrNoSession = errors.New("identity: no session")

// ErrSecondFactorRequired is returned for a session signed in with a password only when the
// identity has a second factor: Kratos (session.whoami.required_aal: highest_available) wants the
// code before it answers for the session.
var ErrSecondFactorRequired = errors.New("identity: second factor required")

// Sessions resolves Kratos session cookies through Kratos's public API.
type Sessions struct {
	public *kratos.APIClient
}

// NewSessions builds the resolver for the given Kratos public URL.
func NewSessions(publicURL string, hc *http.Client) *Sessions {
	return &Sessions{public: kratosClient(publicURL, hc)}
}

// FromCookie returns the session's user for a request's Cookie header: from Kratos, or what Kratos said of the
// same session within CacheTTL (sessioncache.go).
func (s *Sessions) FromCookie(ctx context.Context, cookieHeader string) (User, error) {
	if cookieHeader == "" {
		return User{}, ErrNoSession
	}
	key, cacheable := sessionKey(cookieHeader)
	now := time.Now()
	var gen uint64
	if cacheable {
		u, g, hit := sessions.get(key, now)
		if hit {
			return u, nil
		}
		gen = g
	}
	sess, res, err := s.public.FrontendAPI.ToSession(ctx).Cookie(cookieHeader).Execute()
	if res != nil && res.StatusCode == http.StatusForbidden && errorID(err) == "session_aal2_required" {
		return User{}, ErrSecondFactorRequired
	}
	if res != nil && (res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden) {
		return User{}, ErrNoSession
	}
	if err != nil {
		return User{}, fmt.Errorf("kratos whoami: %w", err)
	}
	if sess.Active == nil || !*sess.Active || sess.Identity == nil {
		return User{}, ErrNoSession
	}
	u, err := userOf(sess.Identity)
	if err != nil {
		return User{}, err
	}
	u.Session.ID, _ = uuid.Parse(sess.Id)
	if sess.AuthenticatedAt != nil {
		u.Session.AuthenticatedAt = *sess.AuthenticatedAt
	}
	if sess.AuthenticatorAssuranceLevel != nil {
		u.Session.AAL = string(*sess.AuthenticatorAssuranceLevel)
	}
	// An unverified user is not kept: the link that verifies them may be opened in another browser, past the
	// proxy's reach, and their next request must see it.
	if cacheable && u.EmailVerified {
		until := now.Add(CacheTTL)
		if sess.ExpiresAt != nil && sess.ExpiresAt.Before(until) {
			until = *sess.ExpiresAt
		}
		sessions.put(key, u, until, gen)
	}
	return u, nil
}

// errorID is the id of a Kratos error answer ({"error": {"id": …}}), or "".
func errorID(err error) string {
	var api *kratos.GenericOpenAPIError
	if !errors.As(err, &api) {
		return ""
	}
	var body struct {
		Error struct {
			ID string `json:"id"`
		} `json:"error"`
	}
	_ = json.Unmarshal(api.Body(), &body)
	return body.Error.ID
}

func userOf(id *kratos.Identity) (User, error) {
	uid, err := uuid.Parse(id.Id)
	if err != nil {
		return User{}, err
	}
	u := User{ID: uid}
	if traits, ok := id.Traits.(map[string]any); ok {
		u.Email, _ = traits["email"].(string)
		u.Phone, _ = traits["phone"].(string)
		u.RoleArea, _ = traits["role_area"].(string)
		if name, ok := traits["name"].(map[string]any); ok {
			u.FirstName, _ = name["first"].(string)
			u.LastName, _ = name["last"].(string)
		}
	}
	for _, a := range id.VerifiableAddresses {
		switch {
		case a.Via == "email" && strings.EqualFold(a.Value, u.Email): // Kratos keeps addresses lower-cased
			u.EmailVerified = a.Verified
		case a.Via == "sms" && a.Value == u.Phone:
			u.PhoneVerified = a.Verified
		}
	}
	return u, nil
}
