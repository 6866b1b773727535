package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
)

func TestExportBuildsThenEmails(t *testing.T) {
	t.Parallel()
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	var a *Activities
	var built, mailed string
	env.OnActivity(a.BuildLeadsCSV, mock.Anything, "org-1", mock.Anything, mock.Anything).Return(
		func(_ context.Context, _ string, token string, _ time.Time) (int, error) {
			built = token
			return 3, nil
		})
	env.OnActivity(a.EmailLink, mock.Anything, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in Input, token string) error {
			require.Equal(t, "a@b.test", in.Email)
			mailed = token
			return nil
		})
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org-1", Email: "a@b.test", Lang: "en"})
	require.NoError(t, env.GetWorkflowError())
	var res Result
	require.NoError(t, env.GetWorkflowResult(&res))
	require.True(t, ValidToken(res.Token))
	require.Equal(t, 3, res.Rows)
	require.Equal(t, res.Token, built)
	require.Equal(t, res.Token, mailed)
}

// A failing build is retried with the same token (same object), and the link goes out once.
func TestExportRetriesFailedBuild(t *testing.T) {
	t.Parallel()
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	var a *Activities
	var tokens []string
	env.OnActivity(a.BuildLeadsCSV, mock.Anything, "org-1", mock.Anything, mock.Anything).Return(
		func(_ context.Context, _ string, token string, _ time.Time) (int, error) {
			tokens = append(tokens, token)
			if len(tokens) < 3 {
				return 0, errors.New("storage down")
			}
			return 1, nil
		})
	mails := 0
	env.OnActivity(a.EmailLink, mock.Anything, mock.Anything, mock.Anything).Return(func(context.Context, Input, string) error {
		mails++
		return nil
	})
	env.ExecuteWorkflow(Workflow, Input{OrganizationID: "org-1", Email: "a@b.test"})
	require.NoError(t, env.GetWorkflowError())
	require.Len(t, tokens, 3)
	require.Equal(t, tokens[0], tokens[2])
	require.Equal(t, 1, mails)
}

func TestCleanupDeletesOutsideTheWindow(t *testing.T) {
	t.Parallel()
	env := new(testsuite.WorkflowTestSuite).NewTestWorkflowEnvironment()
	var a *Activities
	now := env.Now()
	env.OnActivity(a.DeleteOldLeads, mock.Anything, mock.Anything).Return(func(_ context.Context, before time.Time) (int64, error) {
		require.WithinDuration(t, now.Add(-90*24*time.Hour), before, time.Minute)
		return 7, nil
	})
	env.OnActivity(a.DeleteOldFiles, mock.Anything, mock.Anything).Return(nil)
	env.ExecuteWorkflow(CleanupWorkflow)
	require.NoError(t, env.GetWorkflowError())
	var n int64
	require.NoError(t, env.GetWorkflowResult(&n))
	require.Equal(t, int64(7), n)
}

func TestCSVEscapesAndDefusesFormulas(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w, err := NewCSVWriter(&buf)
	require.NoError(t, err)
	at := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	require.NoError(t, w.Write(Lead{Email: "=HYPERLINK(\"x\")@a.test", FirstName: "Ana, \"la\"", LastName: "+1", Campaign: "@sum\nline", CreatedAt: at}, time.UTC))
	require.NoError(t, w.Write(Lead{Email: "b@a.test", FirstName: "-2", LastName: "Pérez", Campaign: "Niñez", CreatedAt: at}, time.UTC))
	require.NoError(t, w.Close())
	out := strings.TrimPrefix(buf.String(), "\ufeff")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, [][]string{
		Header,
		{"'=HYPERLINK(\"x\")@a.test", "Ana, \"la\"", "'+1", "'@sum\nline", "2027-03-01T12:00:00Z"},
		{"b@a.test", "'-2", "Pérez", "Niñez", "2027-03-01T12:00:00Z"},
	}, recs)
}

func TestSignedLink(t *testing.T) {
	t.Parallel()
	secret := []byte("0123456789abcdef0123456789abcdef")
	tok := newToken()
	sig := Sign(secret, tok, 100)
	require.True(t, Verify(secret, tok, 100, sig))
	require.False(t, Verify(secret, tok, 101, sig), "the expiry is signed")
	require.False(t, Verify(secret, newToken(), 100, sig))
	require.False(t, Verify([]byte("other"), tok, 100, sig))
}
