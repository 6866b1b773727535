package identity

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

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
}

// ErrNoSession is returned when the request carries no valid Kratos session.
var ErrNoSession = errors.New("identity: no session")

// Sessions resolves Kratos session cookies through Kratos's public API.
type Sessions struct {
	public *kratos.APIClient
}

// NewSessions builds the resolver for the given Kratos public URL.
func NewSessions(publicURL string, hc *http.Client) *Sessions {
	cfg := kratos.NewConfiguration()
	cfg.Servers = kratos.ServerConfigurations{{URL: publicURL}}
	cfg.HTTPClient = hc
	return &Sessions{public: kratos.NewAPIClient(cfg)}
}

// FromCookie returns the session's user for a request's Cookie header.
func (s *Sessions) FromCookie(ctx context.Context, cookieHeader string) (User, error) {
	if cookieHeader == "" {
		return User{}, ErrNoSession
	}
	sess, res, err := s.public.FrontendAPI.ToSession(ctx).Cookie(cookieHeader).Execute()
	if res != nil && (res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden) {
		return User{}, ErrNoSession
	}
	if err != nil {
		return User{}, fmt.Errorf("kratos whoami: %w", err)
	}
	if sess.Active == nil || !*sess.Active || sess.Identity == nil {
		return User{}, ErrNoSession
	}
	return userOf(sess.Identity)
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
