package portal

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// A token works for its purpose and subject until it expires; a tampered one, another purpose's or
// another secret's does not.
func TestTokensAreBoundToPurposeSecretAndExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2027, 3, 1, 10, 0, 0, 0, time.UTC)
	k := Keys{Secret: []byte("secret"), Now: func() time.Time { return now }}
	org, session := uuid.New(), uuid.New()
	s := k.Sign(sessionPurpose, org, session, now.Add(SessionTTL)) // as OpenSession signs it

	gotOrg, gotSession, ok := k.ParseSession(s)
	require.True(t, ok)
	require.Equal(t, org, gotOrg)
	require.Equal(t, session, gotSession)

	_, ok = k.LinkOrganization(s)
	require.False(t, ok, "a session is not a link")
	_, _, ok = Keys{Secret: []byte("other"), Now: k.Now}.ParseSession(s)
	require.False(t, ok, "another secret")
	b := []byte(s)
	b[10] ^= 1
	_, _, ok = k.ParseSession(string(b))
	require.False(t, ok, "tampered")
	_, _, ok = Keys{Now: k.Now}.ParseSession(s)
	require.False(t, ok, "no secret, no session")

	later := Keys{Secret: k.Secret, Now: func() time.Time { return now.Add(SessionTTL) }}
	_, _, ok = later.ParseSession(s)
	require.False(t, ok, "expired at SessionTTL")
	almost := Keys{Secret: k.Secret, Now: func() time.Time { return now.Add(SessionTTL - time.Second) }}
	_, _, ok = almost.ParseSession(s)
	require.True(t, ok)
}

func TestURL(t *testing.T) {
	t.Parallel()
	require.Equal(t, "https://a.test/donor/mi%20campa%C3%B1a", URL("https://a.test", "mi campaña", ""))
	require.Equal(t, "https://a.test/donor/x?token=a%2Bb", URL("https://a.test", "x", "a+b"))
}
