package gateways_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/workflows/gatewayrefresh"
)

// TestRefreshAndReconnect connects through the API (which starts the connection's refresh
// workflow on the stack's worker), then runs the workflow's activities against the sandbox: a
// refresh rotates the tokens; once the account holder revokes the app, the refresh is refused,
// the connection needs reconnection (the form closes, administrators get an e-mail), and
// connecting again makes it active.
func TestRefreshAndReconnect(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	admin, nickname, id := connectedAdmin(t, s, "REFRESH")

	desc, err := s.Temporal.DescribeWorkflowExecution(ctx, gatewayrefresh.WorkflowID(id), "")
	require.NoError(t, err)
	require.Equal(t, enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, desc.WorkflowExecutionInfo.Status, "the refresh workflow waits for the expiry")

	oauth, err := mercadopago.NewOAuth(mercadopago.OAuthConfig{BaseURL: s.Config.GatewayURL, AuthURL: s.Config.MPAuthURL,
		ClientID: s.Config.MPClientID, ClientSecret: s.Config.MPClientSecret})
	require.NoError(t, err)
	acts := &gatewayrefresh.Activities{Tenants: s.Tenants, Store: s.Gateways.Store,
		OAuth: map[string]gateway.OAuth{connections.MercadoPago: oauth}, Mail: outbox.NewMailer(s.Config, s.Tenants.Directory()),
		PublicURL: s.Config.PublicURL}
	in := gatewayrefresh.Input{OrganizationID: admin.OrgID.String(), ConnectionID: id}

	before := secretsOf(t, s, admin.OrgID)
	st, err := acts.Load(ctx, in)
	require.NoError(t, err)
	require.True(t, st.Refreshable())
	out, err := acts.Refresh(ctx, in, st.Version)
	require.NoError(t, err)
	require.Equal(t, gatewayrefresh.OutcomeRefreshed, out)
	after := secretsOf(t, s, admin.OrgID)
	require.NotEqual(t, before, after, "new access and refresh tokens")
	// A second run of the same step (a retried activity) finds the version gone and does nothing.
	out, err = acts.Refresh(ctx, in, st.Version)
	require.NoError(t, err)
	require.Equal(t, gatewayrefresh.OutcomeChanged, out)

	// The account holder revokes the application at MercadoPago.
	revoke(t, s, admin)

	st, err = acts.Load(ctx, in)
	require.NoError(t, err)
	out, err = acts.Refresh(ctx, in, st.Version)
	require.NoError(t, err)
	require.Equal(t, gatewayrefresh.OutcomeRefused, out)
	require.NoError(t, acts.MarkNeedsReconnection(ctx, in, st.Version))
	require.NoError(t, acts.MarkNeedsReconnection(ctx, in, st.Version), "a retried activity e-mails once")

	l, _ := gatewaysOf(t, admin)
	require.Equal(t, "needs_reconnection", l.Gateways[0].Connection.Status)
	require.Equal(t, "gateway_missing", publicForm(t, s, admin)["closed_reason"])
	requireOneReconnectionMail(t, s, admin, nickname)

	// Reconnecting (the same account) makes it active again, under the same id, with a fresh workflow.
	require.Equal(t, "mercadopago", landing(t, admin, authorize(t, admin, "settings", nickname, "AR", true)).Query().Get("connected"))
	l, _ = gatewaysOf(t, admin)
	require.Equal(t, "active", l.Gateways[0].Connection.Status)
	require.Equal(t, id, l.Gateways[0].Connection.ID)
	require.Equal(t, true, publicForm(t, s, admin)["accepting_donations"])
	again, err := s.Temporal.DescribeWorkflowExecution(ctx, gatewayrefresh.WorkflowID(id), "")
	require.NoError(t, err)
	require.NotEqual(t, desc.WorkflowExecutionInfo.Execution.RunId, again.WorkflowExecutionInfo.Execution.RunId)
}

// TestRefusedChargeRefreshesNow: after the account holder revokes the app, the next charges get
// 401; each asks the connection's refresh workflow (on the stack's worker) to refresh now, the
// gateway refuses the refresh, and the connection needs reconnection with one e-mail to the
// administrators, long before the token's expiry.
func TestRefusedChargeRefreshesNow(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	admin, nickname, id := connectedAdmin(t, s, "REFUSED")
	revoke(t, s, admin)

	// Two charges with the client of the revoked version (the first refusal may mark the connection
	// before the second charge would look it up again).
	gw := accountOf(t, workerGateways(s), admin)
	for range 2 {
		require.Equal(t, http.StatusUnauthorized, chargeStatus(t, s, gw, admin), "refused, nothing charged")
	}

	require.Eventually(t, func() bool {
		l, _ := gatewaysOf(t, admin)
		return l.Gateways[0].Connection.Status == "needs_reconnection"
	}, 30*time.Second, 200*time.Millisecond)
	require.Equal(t, "gateway_missing", publicForm(t, s, admin)["closed_reason"])
	// The workflow ends once the mail is queued; a later 401 (none can come: no client for a
	// connection needing reconnection) would start and end a new run at once.
	require.Eventually(t, func() bool {
		d, err := s.Temporal.DescribeWorkflowExecution(ctx, gatewayrefresh.WorkflowID(id), "")
		return err == nil && d.WorkflowExecutionInfo.Status == enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED
	}, 30*time.Second, 200*time.Millisecond)
	requireOneReconnectionMail(t, s, admin, nickname)
	_, err := workerGateways(s).Gateway(ctx, admin.OrgID, connections.MercadoPago, "ARS")
	require.ErrorIs(t, err, connections.ErrNotConnected)
}

// TestExpiredTokenRefreshesNow: an access token that expired early gets 401 at a charge; the
// refresh now succeeds, the new tokens are stored, and the next charge goes through them.
func TestExpiredTokenRefreshesNow(t *testing.T) {
	s := apitest.Start(t)
	admin, _, _ := connectedAdmin(t, s, "EXPIRED")
	before := secretsOf(t, s, admin.OrgID)
	sandboxAdmin(t, s, admin, "/__sandbox/oauth/expire")

	gateways := workerGateways(s)
	require.Equal(t, http.StatusUnauthorized, chargeStatus(t, s, accountOf(t, gateways, admin), admin))
	require.Eventually(t, func() bool {
		l, _ := gatewaysOf(t, admin)
		return l.Gateways[0].Connection.Status == "active" && !slices.Equal(before, secretsOf(t, s, admin.OrgID))
	}, 30*time.Second, 200*time.Millisecond, "refreshed: new tokens, still active")
	// The gateway now takes the new token (and refuses only the made-up card token).
	require.NotEqual(t, http.StatusUnauthorized, chargeStatus(t, s, accountOf(t, gateways, admin), admin))
}

// workerGateways charges as the workers do (workflows.Run wires the same clients).
func workerGateways(s *apitest.Stack) charge.Gateways {
	return charge.Connected(&connections.Clients{Store: s.Gateways.Store, Tenants: s.Tenants, BaseURL: s.Config.GatewayURL,
		Refresh: gatewayrefresh.Client{Temporal: s.Temporal}}, nil)
}

// accountOf is the client of the organisation's MercadoPago connection as it is now.
func accountOf(t *testing.T, gateways charge.Gateways, admin *apitest.Client) charge.Gateway {
	t.Helper()
	gw, err := gateways.Gateway(context.Background(), admin.OrgID, connections.MercadoPago, "ARS")
	require.NoError(t, err)
	return gw
}

// chargeStatus charges a new transaction with a card token the gateway never issued and answers
// the HTTP status of the gateway's refusal.
func chargeStatus(t *testing.T, s *apitest.Stack, gw charge.Gateway, admin *apitest.Client) int {
	t.Helper()
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	tx := charge.Transaction{OrgID: admin.OrgID, ID: uuid.New(), DonationID: uuid.New(), Amount: 150000, Currency: "ARS"}
	_, err = charge.Charge(ctx, scope, gw, tx, gateway.Charge{Token: "card-token", Email: "ana@example.org",
		Amount: money.Amount{Minor: tx.Amount, Currency: tx.Currency}})
	var gerr *gateway.Error
	require.ErrorAs(t, err, &gerr)
	return gerr.Status
}

// connectedAdmin is an administrator of a new Argentinian organisation connected through the
// API to a new sandbox account (nickname: prefix and a random tail), and the connection's id.
func connectedAdmin(t *testing.T, s *apitest.Stack, prefix string) (admin *apitest.Client, nickname, id string) {
	t.Helper()
	admin = unconnected(t, s, "AR")
	nickname = prefix + strings.ToUpper(uuid.NewString()[:8])
	landing(t, admin, authorize(t, admin, "settings", nickname, "AR", true))
	return admin, nickname, mustConnection(t, admin)
}

// revoke revokes the app at the sandbox for the organisation's connected account.
func revoke(t *testing.T, s *apitest.Stack, admin *apitest.Client) {
	t.Helper()
	sandboxAdmin(t, s, admin, "/__sandbox/oauth/revoke")
}

// sandboxAdmin posts to a sandbox admin endpoint about the organisation's connected account.
func sandboxAdmin(t *testing.T, s *apitest.Stack, admin *apitest.Client, path string) {
	t.Helper()
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	conn, err := s.Gateways.Store.ActiveConnection(context.Background(), scope, connections.MercadoPago)
	require.NoError(t, err)
	res, err := http.Post(s.Config.GatewayURL+path, "application/json", strings.NewReader(`{"user_id":`+conn.AccountID+`}`))
	require.NoError(t, err)
	res.Body.Close()
	require.Less(t, res.StatusCode, 300)
}

func requireOneReconnectionMail(t *testing.T, s *apitest.Stack, admin *apitest.Client, nickname string) {
	t.Helper()
	var subject, body string
	var n int
	require.NoError(t, s.Tenants.Directory().QueryRow(context.Background(), `SELECT count(*), min(subject), min(body) FROM outbox_messages
		WHERE recipient = $1 AND template_type = 'gateway_needs_reconnection'`, admin.Email).Scan(&n, &subject, &body))
	require.Equal(t, 1, n)
	require.Contains(t, subject, "MercadoPago")
	require.Contains(t, body, nickname)
	require.Contains(t, body, "/manage/settings/gateways")
}
