package gatewaynotify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/pdfdoc/pdftest"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

type fixture struct {
	t      *testing.T
	scope  tenants.Scope
	srv    string // the in-process API; the stack's own serve takes the sandbox's notifications
	gw     string
	slug   string
	mp     gateway.Account
	secret string // the application's, as MercadoPago signs with
}

func setup(t *testing.T, name string) fixture {
	ctx := context.Background()
	cfg, tt := tenantstest.Config(t), tenantstest.Open(t)
	scope := tenantstest.ArgentineOrganization(t, tt, name, "enabled", "essential_monthly")
	_, err := sandboxauth.ConnectWith(ctx, cfg, scope, "NOTIFY"+strings.ToUpper(scope.OrgID.String()[:8]))
	require.NoError(t, err)
	c := apitest.PublishedCampaign(t, tt, scope.OrgID, campaign.Input{Title: "Campaña devoluciones", Type: "fundraise",
		Channel: "public", AllowOneTime: true, AllowOtherAmount: true, Amounts: []campaign.Amount{{Amount: "500"}}})
	store, err := connections.Open(ctx, cfg)
	require.NoError(t, err)
	mp, _, err := (&connections.Clients{Store: store, Tenants: tt, BaseURL: cfg.GatewayURL}).ForScope(ctx, scope, connections.MercadoPago, "ARS")
	require.NoError(t, err)
	return fixture{t: t, scope: scope, srv: apitest.Router(t, cfg, tt).URL, gw: cfg.GatewayURL, slug: c.Slug, mp: mp,
		secret: cfg.MPWebhookSecret}
}

// donate makes an approved one-time donation on the public form; it answers the transaction's id
// and its payment's id at the gateway.
func (f fixture) donate() (uuid.UUID, string) {
	t := f.t
	tok := sandboxtest.CardToken(t, f.gw, "", "4509953566233704", "APRO")
	body, _ := json.Marshal(apitest.FormPayload(tok, 0, 1500, "donor-"+uuid.NewString()[:8]+"@example.org", uuid.NewString()))
	req, err := http.NewRequest(http.MethodPost, f.srv+"/d/"+f.slug, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := apitest.HTTPClient(apitest.NewIP()).Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)
	var tx uuid.UUID
	var payment string
	require.NoError(t, f.scope.QueryRow(context.Background(), `SELECT t.id, t.gateway_payment_id FROM transactions t
		JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
		WHERE t.organization_id = $1 AND t.status = 'approved' ORDER BY t.created_at DESC LIMIT 1`, f.scope.OrgID).Scan(&tx, &payment))
	return tx, payment
}

// state is a transaction's status, whether its receipt is annulled, and the organisation's raised total.
func (f fixture) state(tx uuid.UUID) (status string, annulled bool, raised int64) {
	require.NoError(f.t, f.scope.QueryRow(context.Background(), `SELECT t.status,
		EXISTS (SELECT 1 FROM receipts r WHERE r.organization_id = $1 AND r.transaction_id = $2 AND r.annulled_at IS NOT NULL),
		(SELECT coalesce(sum(raised_minor), 0) FROM dashboard_daily WHERE organization_id = $1)::bigint
		FROM transactions t WHERE t.organization_id = $1 AND t.id = $2`, f.scope.OrgID, tx).Scan(&status, &annulled, &raised))
	return status, annulled, raised
}

// notify posts a notification of payment as MercadoPago does, signed with secret, to org's address.
func (f fixture) notify(org uuid.UUID, payment, secret string) (int, map[string]any) {
	rid := uuid.NewString()
	req, err := http.NewRequest(http.MethodPost, f.srv+connections.NotificationPath+org.String()+"?data.id="+payment+"&type=payment",
		strings.NewReader(`{"action":"payment.updated","type":"payment","data":{"id":"`+payment+`"}}`))
	require.NoError(f.t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-request-id", rid)
	req.Header.Set("x-signature", mercadopago.Sign(secret, payment, rid, time.Now()))
	res, err := http.DefaultClient.Do(req)
	require.NoError(f.t, err)
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// A refund made in MercadoPago's panel and a chargeback reach the organisation through the
// gateway's notification: the transaction takes the gateway's status, its receipt is annulled and
// the dashboard no longer counts it.
func TestRefundAndChargebackAtTheGatewayReachTheTransaction(t *testing.T) {
	t.Parallel()
	f := setup(t, "Fundación Devoluciones")
	ctx := context.Background()
	refunded, refundedPayment := f.donate()
	chargedBack, chargedBackPayment := f.donate()
	status, annulled, raised := f.state(refunded)
	require.Equal(t, "approved", status)
	require.False(t, annulled)
	require.EqualValues(t, 2*150000, raised)

	_, err := f.mp.Refund(ctx, gateway.RefundRequest{PaymentID: refundedPayment, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	res, err := http.Post(f.gw+"/__sandbox/payments/"+chargedBackPayment+"/chargeback", "application/json", nil)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)

	// The sandbox posts each notification to the stack's own server, as MercadoPago would.
	require.Eventually(t, func() bool {
		s1, a1, _ := f.state(refunded)
		s2, a2, _ := f.state(chargedBack)
		return s1 == "refunded" && a1 && s2 == "charged_back" && a2
	}, 30*time.Second, 200*time.Millisecond)
	_, _, raised = f.state(refunded)
	require.Zero(t, raised)
	var exact int64
	require.NoError(t, f.scope.Tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `SELECT dashboard_rollup_rebuild($1)`, f.scope.OrgID)
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT coalesce(sum(raised_minor), 0)::bigint FROM dashboard_daily WHERE organization_id = $1`, f.scope.OrgID).Scan(&exact)
	}))
	require.Zero(t, exact, "the rollup agrees with a rebuild from the rows")

	// The receipt stays, says it was annulled, and leaves the donor's yearly summary.
	var number int64
	var donor uuid.UUID
	require.NoError(t, f.scope.QueryRow(ctx, `SELECT number, donor_id FROM receipts WHERE organization_id = $1 AND transaction_id = $2`,
		f.scope.OrgID, refunded).Scan(&number, &donor))
	rc, err := f.scope.Store().ReceiptByNumber(ctx, sharddb.ReceiptByNumberParams{OrganizationID: f.scope.OrgID, Number: number})
	require.NoError(t, err)
	pdf, err := receipt.Reader{Lang: i18n.ES, Zone: time.UTC}.PDF(rc.Receipt)
	require.NoError(t, err)
	require.Contains(t, pdftest.Text(t, pdf), "ANULADO: cobro devuelto el")
	from, to := receipt.Year(time.Now().Year(), time.UTC)
	year, err := f.scope.Store().DonorReceipts(ctx, sharddb.DonorReceiptsParams{OrganizationID: f.scope.OrgID, DonorID: donor, FromAt: from, ToAt: to})
	require.NoError(t, err)
	require.Empty(t, year)

	// The same notification again changes nothing more.
	code, body := f.notify(f.scope.OrgID, refundedPayment, f.secret)
	require.Equal(t, http.StatusOK, code, body)
	require.Equal(t, false, body["changed"])
}

// Notifications are posted by anyone who knows the address: an unsigned or forged one is refused,
// and a signed one only makes us read the payment back with the organisation's own account, so
// naming another organisation's payment, or a payment still approved, changes nothing.
func TestForgedOrForeignNotificationsChangeNothing(t *testing.T) {
	t.Parallel()
	f := setup(t, "Fundación Firmas")
	other := setup(t, "Fundación Ajena")
	tx, payment := f.donate()

	code, body := f.notify(f.scope.OrgID, payment, "not-the-secret")
	require.Equal(t, http.StatusUnauthorized, code, body)
	require.Equal(t, "gateway.notification_unsigned", body["error"].(map[string]any)["code"])

	code, body = f.notify(f.scope.OrgID, payment, f.secret) // signed, but the payment is still approved
	require.Equal(t, http.StatusOK, code, body)
	require.Equal(t, false, body["changed"])

	_, err := f.mp.Refund(context.Background(), gateway.RefundRequest{PaymentID: payment, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	// Another organisation's address with this payment: its account has no such payment.
	code, body = other.notify(other.scope.OrgID, payment, f.secret)
	require.Equal(t, http.StatusOK, code, body)
	require.Equal(t, false, body["changed"])
	code, body = f.notify(uuid.New(), payment, f.secret)
	require.Equal(t, http.StatusNotFound, code, body)

	// Its own address: the refund lands (the sandbox's own notification to the stack may have been first).
	code, body = f.notify(f.scope.OrgID, payment, f.secret)
	require.Equal(t, http.StatusOK, code, body)
	status, annulled, _ := f.state(tx)
	require.Equal(t, "refunded", status)
	require.True(t, annulled)
}
