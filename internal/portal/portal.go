// Package portal is the donor portal's access: magic links a donor gets by e-mail and the session
// a link opens. A link is signed with the platform's secret (organisation, link id, expiry) and
// names a donor_portal_links row that the first use consumes, so it opens one session only, and
// only until it expires. The session is a donor_portal_sessions row named by a signed cookie value
// (organisation, session, expiry): it reaches that donor's donations in that organisation and
// nothing else, ends when its hour does or when the donor signs out (the row is revoked), and it
// is not a Kratos session (staff and organisation users sign in elsewhere).
package portal

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/sharddb"
)

// Link lifetimes: a link the donor asked for is used at once; a link in a declined-charge e-mail
// may be opened days later, while the period's retries still run.
const (
	AccessTTL  = 30 * time.Minute
	DeclineTTL = 7 * 24 * time.Hour
	// SessionTTL is how long a portal session lasts; the donor asks for a new link after it.
	SessionTTL = time.Hour
)

// Link purposes (donor_portal_links.purpose).
const (
	PurposeAccess   = "access"
	PurposeDeclined = "card_declined"
)

// ErrInvalid is a link that is forged, expired or already used: the same answer for each.
var ErrInvalid = errors.New("portal: invalid or used link")

// tokenLen is a token's size before encoding: organisation id, subject id (the link's or the
// donor's), expiry (Unix seconds) and their HMAC-SHA256.
const tokenLen = 16 + 16 + 8 + sha256.Size

const (
	linkPurpose    = "donor-portal-link:"
	sessionPurpose = "donor-portal-session:"
)

// Keys signs and checks links and sessions with the platform's secret.
type Keys struct {
	Secret []byte
	Now    func() time.Time // nil: time.Now
}

func (k Keys) now() time.Time {
	if k.Now == nil {
		return time.Now()
	}
	return k.Now()
}

// Issue stores a new link for the donor and returns its token, valid for ttl.
func (k Keys) Issue(ctx context.Context, q *sharddb.Queries, orgID, donorID uuid.UUID, purpose string, ttl time.Duration) (string, error) {
	now := k.now()
	id := uuid.New()
	exp := now.Add(ttl)
	if err := q.InsertPortalLink(ctx, sharddb.InsertPortalLinkParams{OrganizationID: orgID, ID: id, DonorID: donorID,
		Purpose: purpose, ExpiresAt: exp}); err != nil {
		return "", err
	}
	// Old links go as new ones come: the table holds about a day of them.
	if err := q.SweepPortalLinks(ctx, sharddb.SweepPortalLinksParams{OrganizationID: orgID, Before: now.Add(-24 * time.Hour)}); err != nil {
		return "", err
	}
	return k.Sign(linkPurpose, orgID, id, exp), nil
}

// LinkOrganization is the organisation a link token names, if its signature and expiry hold (it
// may still be used already: Consume decides).
func (k Keys) LinkOrganization(token string) (uuid.UUID, bool) {
	org, _, ok := k.Parse(linkPurpose, token)
	return org, ok
}

// Consume uses the link once and returns its donor. A forged, expired or used link is ErrInvalid.
func (k Keys) Consume(ctx context.Context, q *sharddb.Queries, token string) (orgID, donorID uuid.UUID, err error) {
	org, id, ok := k.Parse(linkPurpose, token)
	if !ok {
		return uuid.Nil, uuid.Nil, ErrInvalid
	}
	donor, err := q.ConsumePortalLink(ctx, sharddb.ConsumePortalLinkParams{OrganizationID: org, ID: id, Now: k.now()})
	if errors.Is(err, dberr.ErrNotFound) {
		return uuid.Nil, uuid.Nil, ErrInvalid
	}
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	return org, donor, nil
}

// OpenSession stores a session of the donor and returns its signed value (organisation, session
// id, expiry), valid for SessionTTL unless revoked before.
func (k Keys) OpenSession(ctx context.Context, q *sharddb.Queries, orgID, donorID uuid.UUID) (string, error) {
	now := k.now()
	id, exp := uuid.New(), now.Add(SessionTTL)
	if err := q.InsertPortalSession(ctx, sharddb.InsertPortalSessionParams{OrganizationID: orgID, ID: id, DonorID: donorID,
		ExpiresAt: exp}); err != nil {
		return "", err
	}
	if err := q.SweepPortalSessions(ctx, sharddb.SweepPortalSessionsParams{OrganizationID: orgID, Before: now.Add(-24 * time.Hour)}); err != nil {
		return "", err
	}
	return k.Sign(sessionPurpose, orgID, id, exp), nil
}

// ParseSession checks a session value's signature and expiry: its organisation and session id
// (SessionDonor tells whether the session still stands).
func (k Keys) ParseSession(v string) (orgID, sessionID uuid.UUID, ok bool) {
	return k.Parse(sessionPurpose, v)
}

// SessionDonor is the donor of a stored session neither revoked nor expired; otherwise ErrInvalid.
func (k Keys) SessionDonor(ctx context.Context, q *sharddb.Queries, orgID, sessionID uuid.UUID) (uuid.UUID, error) {
	donor, err := q.PortalSessionDonor(ctx, sharddb.PortalSessionDonorParams{OrganizationID: orgID, ID: sessionID, Now: k.now()})
	if errors.Is(err, dberr.ErrNotFound) {
		return uuid.Nil, ErrInvalid
	}
	return donor, err
}

// RevokeSession ends a session before its hour does (signing out).
func (k Keys) RevokeSession(ctx context.Context, q *sharddb.Queries, orgID, sessionID uuid.UUID) error {
	return q.RevokePortalSession(ctx, sharddb.RevokePortalSessionParams{OrganizationID: orgID, ID: sessionID, Now: k.now()})
}

// URL is the portal page (the web app's /donor/{slug}) of the organisation whose campaign form
// has the slug; with a token the page opens the session.
func URL(publicURL, slug, token string) string {
	u := publicURL + "/donor/" + url.PathEscape(slug)
	if token != "" {
		u += "?token=" + url.QueryEscape(token)
	}
	return u
}

// Sign signs (organisation, subject, expiry) for purpose (which keeps one kind of token from
// passing for another): whoever holds the token may use it for that subject until it expires.
// thanks.Receipts signs thank-you page references with it too.
func (k Keys) Sign(purpose string, org, subject uuid.UUID, exp time.Time) string {
	b := make([]byte, 0, tokenLen)
	b = append(append(b, org[:]...), subject[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(exp.Unix()))
	return base64.RawURLEncoding.EncodeToString(append(b, k.mac(purpose, b)...))
}

// Parse checks a token Sign made for purpose: its signature, and its expiry at Now.
func (k Keys) Parse(purpose, token string) (org, subject uuid.UUID, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != tokenLen || len(k.Secret) == 0 {
		return uuid.Nil, uuid.Nil, false
	}
	payload := b[:tokenLen-sha256.Size]
	if !hmac.Equal(b[len(payload):], k.mac(purpose, payload)) {
		return uuid.Nil, uuid.Nil, false
	}
	if int64(binary.BigEndian.Uint64(payload[32:])) <= k.now().Unix() {
		return uuid.Nil, uuid.Nil, false
	}
	org, _ = uuid.FromBytes(payload[:16])
	subject, _ = uuid.FromBytes(payload[16:32])
	return org, subject, true
}

func (k Keys) mac(purpose string, payload []byte) []byte {
	m := hmac.New(sha256.New, k.Secret)
	m.Write([]byte(purpose))
	m.Write(payload)
	return m.Sum(nil)
}
