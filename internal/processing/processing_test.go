package processing_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/secrets/secretstest"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// world is an Argentine organisation on the stack with two campaigns, and the processors it adds
// (their merchants opened at the stack's dLocal sandbox, as api/processors does).
type world struct {
	p     *processing.Processors
	scope tenants.Scope
	a, b  uuid.UUID
}

func newWorld(t *testing.T) *world {
	t.Helper()
	cfg := tenantstest.Config(t)
	box := secretstest.Box(t, cfg.Secret)
	tt := tenantstest.Open(t)
	w := &world{p: processing.New(cfg, box), scope: tenantstest.ArgentineOrganization(t, tt, "Rutas", "enabled", "essential_monthly")}
	w.a, w.b = w.campaign(t, "Huerta"), w.campaign(t, "Biblioteca")
	return w
}

func (w *world) campaign(t *testing.T, title string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	require.NoError(t, w.scope.Exec(context.Background(),
		`INSERT INTO campaigns (organization_id, id, slug, title, type, currency) VALUES ($1, $2, $3, $4, 'fundraise', 'ARS')`,
		w.scope.OrgID, id, "c-"+id.String()[:8], title))
	return id
}

// add adds a processor in the given position whose rules retry (global only) and route campaigns.
func (w *world) add(t *testing.T, family, descriptor string, position int32, retry bool, campaigns ...uuid.UUID) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	id := uuid.New()
	fee := map[string]int32{processing.Local: 399, processing.Global: 549}[family]
	m, err := w.p.Onboard(ctx, w.scope, id, "Fundación Rutas", fee)
	require.NoError(t, err)
	q := w.scope.Store()
	_, err = q.InsertPaymentProcessor(ctx, sharddb.InsertPaymentProcessorParams{OrganizationID: w.scope.OrgID, ID: id, Family: family,
		GatewayName: "dlocal", SoftDescriptor: descriptor, Position: position, GatewayAccountName: "Fundación Rutas", RuleRetry: retry,
		MerchantLogin: &m.Login, PublicKey: &m.PublicKey, Secret: m.Sealed.Blob, KeyID: &m.Sealed.KeyID})
	require.NoError(t, err)
	if len(campaigns) > 0 {
		require.NoError(t, q.AddProcessorCampaigns(ctx, sharddb.AddProcessorCampaignsParams{OrganizationID: w.scope.OrgID, ProcessorID: id,
			CampaignIds: campaigns}))
	}
	return id
}

func (w *world) route(t *testing.T, campaign uuid.UUID, currency string) charge.Route {
	t.Helper()
	r, err := w.p.CampaignRoute(context.Background(), w.scope, campaign, currency)
	require.NoError(t, err)
	return r
}

func idOf(p *charge.Processor) uuid.UUID {
	if p == nil {
		return uuid.Nil
	}
	return p.ID
}

// TestCampaignRoute: the rules as routing reads them. The global processor's retry rule backs every
// campaign the connected gateway charges; a campaign a rule names goes to the first such processor in
// the organisation's order, whose declines are final (no retry); another currency, a charge of no
// donation and another organisation's processors leave the connected gateway alone.
func TestCampaignRoute(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	require.Equal(t, charge.Route{}, w.route(t, w.a, "ARS"), "no processors: the connected gateway")

	global := w.add(t, processing.Global, "Fundación Rutas", 2, true)
	r := w.route(t, w.a, "ARS")
	require.Nil(t, r.Processor)
	require.Equal(t, global, idOf(r.Retry))
	require.Equal(t, "APORTA*Fundación Rutas", r.Retry.Descriptor)
	require.Equal(t, int32(549), r.Retry.FeeBps)
	require.Equal(t, processing.Global, r.Retry.Family)

	local := w.add(t, processing.Local, "Rutas", 1, false, w.a)
	r = w.route(t, w.a, "ARS")
	require.Equal(t, local, idOf(r.Processor))
	require.Equal(t, "MP*Rutas", r.Processor.Descriptor)
	require.Equal(t, int32(399), r.Processor.FeeBps)
	require.Nil(t, r.Retry, "a processor's declines are not retried")
	r = w.route(t, w.b, "ARS")
	require.Nil(t, r.Processor)
	require.Equal(t, global, idOf(r.Retry), "campaign B stays with the connected gateway, retried")

	// The global processor's rule names both: A stays with the local one (first in order), B goes global.
	require.NoError(t, w.scope.Store().AddProcessorCampaigns(ctx, sharddb.AddProcessorCampaignsParams{OrganizationID: w.scope.OrgID,
		ProcessorID: global, CampaignIds: []uuid.UUID{w.a, w.b}}))
	require.Equal(t, local, idOf(w.route(t, w.a, "ARS").Processor))
	r = w.route(t, w.b, "ARS")
	require.Equal(t, global, idOf(r.Processor))
	require.Nil(t, r.Retry)

	// Retry off: a campaign no rule names has no route at all.
	_, err := w.scope.Store().UpdatePaymentProcessor(ctx, sharddb.UpdatePaymentProcessorParams{OrganizationID: w.scope.OrgID, ID: global,
		SoftDescriptor: "Fundación Rutas", RuleRetry: false})
	require.NoError(t, err)
	require.Equal(t, charge.Route{}, w.route(t, w.campaign(t, "Comedor"), "ARS"))

	// Only the organisation's own currency is charged by its processors.
	require.Equal(t, charge.Route{}, w.route(t, w.b, "USD"))

	// A charge of no donation (an agency's, billing's) is the connected gateway's.
	r, err = w.p.Route(ctx, w.scope, uuid.New(), "ARS")
	require.NoError(t, err)
	require.Equal(t, charge.Route{}, r)

	// Another organisation's rules route none of its own campaigns, and these ids are not its campaigns.
	other := newWorld(t)
	require.Equal(t, charge.Route{}, other.route(t, other.a, "ARS"))
	require.Equal(t, charge.Route{}, other.route(t, w.b, "ARS"))

	// The form's account for a routed campaign tokenises with its processor's public key and charges through it.
	acct, err := w.p.CampaignAccount(ctx, w.scope, w.b, "ARS")
	require.NoError(t, err)
	require.NotEmpty(t, acct.PublicKey)
	require.Equal(t, global, idOf(acct.ChargeProcessor()))
	none, err := w.p.CampaignAccount(ctx, w.scope, w.campaign(t, "Ropero"), "ARS")
	require.NoError(t, err)
	require.Nil(t, none)
}
