package bankdebit_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/bankdebit"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox"
)

const cbu = "2850590940090418135201"

func admin(t *testing.T, url, path, body string) {
	t.Helper()
	res, err := http.Post(url+path, "application/json", bytes.NewBufferString(body))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNoContent, res.StatusCode, path)
}

// The client against the sandbox's bank-debit network: a debit is submitted, undecided until it is
// read, then decided by the CBU's armed outcome; the same key answers the first submission again
// (and a lost answer is an unknown outcome the reference reads back); state survives a restart.
func TestDebitLifecycle(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "sandbox.json")
	sb, err := sandbox.New(sandbox.Options{StatePath: state, PlatformToken: "platform"})
	require.NoError(t, err)
	srv := httptest.NewServer(sb)
	defer srv.Close()
	c := &bankdebit.Client{BaseURL: srv.URL + "/bankdebit/v1", Token: "platform"}
	d := bankdebit.Debit{MandateID: "m1", CBU: cbu, AmountMinor: 149000, Currency: "ARS", Reference: "aporta-plan/s/1"}

	admin(t, srv.URL, "/__sandbox/bankdebit/outcomes", `{"cbu":"`+cbu+`","outcomes":["rejected:insufficient_funds"]}`)
	first, err := c.Submit(ctx, "aporta-plan/s/1/1", d)
	require.NoError(t, err)
	require.Equal(t, bankdebit.Submitted, first.Status, "the bank decides later")
	again, err := c.Submit(ctx, "aporta-plan/s/1/1", d)
	require.NoError(t, err)
	require.Equal(t, first.ID, again.ID, "the same key is the same debit")

	found, err := c.Find(ctx, d.Reference)
	require.NoError(t, err)
	require.Len(t, found, 1)
	require.Equal(t, bankdebit.Rejected, found[0].Status, "read after clearing: the armed rejection")
	require.Equal(t, "insufficient_funds", found[0].Reason)

	// The second attempt's answer is lost after the bank took it: an unknown outcome, and the
	// reference reads it back.
	admin(t, srv.URL, "/__sandbox/faults", `{"mode":"error500","count":1,"after_commit":true}`)
	_, err = c.Submit(ctx, "aporta-plan/s/1/2", d)
	require.True(t, errors.As(err, new(*gateway.UnknownOutcomeError)), "a 5xx may have moved money: %v", err)

	// Another token sees none of the platform's debits; a bad CBU is refused.
	other := &bankdebit.Client{BaseURL: c.BaseURL, Token: "nobody"}
	_, err = other.Find(ctx, d.Reference)
	var refused *gateway.Error
	require.ErrorAs(t, err, &refused)
	require.Equal(t, http.StatusUnauthorized, refused.Status)
	bad := d
	bad.CBU = "123"
	_, err = c.Submit(ctx, "aporta-plan/s/1/3", bad)
	require.ErrorAs(t, err, &refused)
	require.Equal(t, http.StatusBadRequest, refused.Status)

	// Restarted on its state file, the sandbox still has both debits; the second one is confirmed.
	srv.Close()
	sb, err = sandbox.New(sandbox.Options{StatePath: state, PlatformToken: "platform"})
	require.NoError(t, err)
	srv = httptest.NewServer(sb)
	c.BaseURL = srv.URL + "/bankdebit/v1"
	found, err = c.Find(ctx, d.Reference)
	require.NoError(t, err)
	require.Len(t, found, 2)
	require.Equal(t, []string{bankdebit.Rejected, bankdebit.Confirmed}, []string{found[0].Status, found[1].Status})
	require.NotNil(t, found[1].DecidedAt)
}
