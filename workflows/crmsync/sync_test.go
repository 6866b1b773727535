package crmsync_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/crm/sandbox"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/history"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/crmsync"
)

// fixture is an organisation with donors and monthly donations, connected to an org of its own at
// the stack's sandbox CRM, with donors mapped to contacts and donations to NPSP recurring donations.
type fixture struct {
	t         *testing.T
	ctx       context.Context
	tt        *tenants.Tenants
	scope     tenants.Scope
	admin     sandbox.Admin
	org       sandbox.Org
	vault     *crmlink.Vault
	integ     uuid.UUID
	donors    []uuid.UUID
	donations []uuid.UUID
}

func newFixture(t *testing.T, donors, dailyLimit int) *fixture {
	t.Helper()
	ctx := context.Background()
	cfg := tenantstest.Config(t)
	tt := tenantstest.Open(t)
	f := &fixture{t: t, ctx: ctx, tt: tt, admin: sandbox.Admin{BaseURL: os.Getenv("APORTA_SANDBOX_CRM_URL")}}
	require.NotEmpty(t, f.admin.BaseURL, "APORTA_SANDBOX_CRM_URL: run on the stack")
	f.scope = tenantstest.ArgentineOrganization(t, tt, "CRM sync", "enabled", "original")
	var err error
	f.org, err = f.admin.NewOrg(ctx, dailyLimit)
	require.NoError(t, err)
	f.vault, err = crmlink.NewVault(ctx, cfg)
	require.NoError(t, err)
	f.vault.Timeout = time.Second

	campaign := uuid.New()
	require.NoError(t, f.scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, currency) VALUES ($1, $2, $3, 'Invierno', 'fundraise', 'ARS')`,
		f.scope.OrgID, campaign, "invierno-"+campaign.String()[:8]))
	for i := range donors {
		d, n := uuid.New(), uuid.New()
		require.NoError(t, f.scope.Exec(ctx, `INSERT INTO donors (organization_id, id, email, first_name, last_name) VALUES ($1, $2, $3, 'Ana', $4)`,
			f.scope.OrgID, d, d.String()+"@example.org", "Pérez "+string(rune('A'+i))))
		require.NoError(t, f.scope.Exec(ctx, `INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency) VALUES ($1, $2, $3, $4, 150050, 'ARS')`,
			f.scope.OrgID, n, campaign, d))
		f.donors, f.donations = append(f.donors, d), append(f.donations, n)
	}
	f.connect()
	f.rule("donor", "email", "contact", "Email", crmlink.AlwaysOverride, nil)
	f.rule("donor", "last_name", "contact", "LastName", crmlink.AlwaysOverride, nil)
	f.rule("donor", "first_name", "contact", "FirstName", crmlink.OverrideIfEmpty, nil)
	f.rule("donation", "amount", "recurring_donation", "npe03__Amount__c", crmlink.AlwaysOverride, nil)
	f.rule("donation", "status", "recurring_donation", "npsp__Status__c", crmlink.AlwaysOverride,
		map[string]string{"pending": "Active", "active": "Active", "paused": "Paused", "discarded": "Closed", "rejected": "Closed"})
	for i := range f.donors {
		f.enqueue(crmlink.Donor, f.donors[i])
		f.enqueue(crmlink.Donation, f.donations[i])
	}
	return f
}

// connect stores the integration as the setup does: sealed secret, the CRM's describes.
func (f *fixture) connect() {
	c := f.vault.Client(f.admin.Credentials(f.org), nil)
	ds := map[string]crm.Describe{}
	for object, sobject := range crm.SObjects {
		d, err := c.Describe(f.ctx, sobject)
		require.NoError(f.t, err)
		ds[object] = d
	}
	data, err := json.Marshal(ds)
	require.NoError(f.t, err)
	f.integ = uuid.New()
	sealed, err := f.vault.Seal(f.ctx, f.scope.OrgID, f.integ, f.org.ClientSecret)
	require.NoError(f.t, err)
	_, err = f.scope.Store().CreateCRMIntegration(f.ctx, sharddb.CreateCRMIntegrationParams{OrganizationID: f.scope.OrgID, ID: f.integ,
		Name: "Sandbox", LoginUrl: f.admin.BaseURL, ClientID: f.org.ClientID, ClientSecret: sealed.Blob, KeyID: sealed.KeyID,
		ExternalIDField: sandbox.ExternalIDField, Describes: data})
	require.NoError(f.t, err)
}

func (f *fixture) rule(class, attr, object, field, syncRule string, vm map[string]string) {
	vmJSON, _ := json.Marshal(vm)
	if vm == nil {
		vmJSON = []byte("{}")
	}
	_, err := f.scope.Store().CreateCRMRule(f.ctx, sharddb.CreateCRMRuleParams{OrganizationID: f.scope.OrgID, IntegrationID: f.integ,
		ID: uuid.New(), ClassName: class, Attribute: attr, CrmObject: object, Field: field, SyncRule: syncRule, ValueMap: vmJSON})
	require.NoError(f.t, err)
}

func (f *fixture) enqueue(kind string, id uuid.UUID) {
	require.NoError(f.t, crmlink.Enqueue(f.ctx, f.scope.Store(), f.scope.OrgID, kind, id))
}

func (f *fixture) activities() *crmsync.Activities {
	return &crmsync.Activities{Tenants: f.tt, Vault: f.vault, ParkFor: time.Hour}
}

func (f *fixture) input() crmsync.Input {
	return crmsync.Input{OrganizationID: f.scope.OrgID.String(), IntegrationID: f.integ.String()}
}

func (f *fixture) records(sobject string) []crm.Record {
	r, err := f.admin.Records(f.ctx, f.org.ClientID, sobject)
	require.NoError(f.t, err)
	return r
}

func (f *fixture) queue() sharddb.CRMQueueCountsRow {
	c, err := f.scope.Store().CRMQueueCounts(f.ctx, sharddb.CRMQueueCountsParams{OrganizationID: f.scope.OrgID, IntegrationID: f.integ})
	require.NoError(f.t, err)
	return c
}

func (f *fixture) outcomes() map[string]int {
	rows, err := f.scope.Store().CRMRequests(f.ctx, sharddb.CRMRequestsParams{OrganizationID: f.scope.OrgID, IntegrationID: f.integ, Limit: 1000})
	require.NoError(f.t, err)
	out := map[string]int{}
	for _, r := range rows {
		out[r.Operation+"/"+r.Outcome]++
	}
	return out
}

// byExternalID indexes records by their Aporta id, failing on a duplicate.
func (f *fixture) byExternalID(records []crm.Record) map[string]crm.Record {
	out := map[string]crm.Record{}
	for _, r := range records {
		id, _ := r[sandbox.ExternalIDField].(string)
		_, dup := out[id]
		require.False(f.t, dup, "record %s written twice", id)
		out[id] = r
	}
	return out
}

func TestDrainWritesOnceOverridesIfEmptyAndSurvivesFaults(t *testing.T) {
	f := newFixture(t, 3, 0)
	a := f.activities()

	// The CRM already has the first donor, with a first name the organisation edited there.
	c := f.vault.Client(f.admin.Credentials(f.org), nil)
	_, err := c.Upsert(f.ctx, "Contact", sandbox.ExternalIDField, []crm.Record{{sandbox.ExternalIDField: f.donors[0].String(), "LastName": "Old", "FirstName": "Anita"}})
	require.NoError(t, err)

	// A batch reads the contacts (override if empty), upserts them, then the recurring donations. A 500
	// after the CRM wrote the recurring donations, then a timeout on the contacts: the batch fails, and runs again.
	require.NoError(t, f.admin.Fault(f.ctx, f.org.ClientID, sandbox.Fault{Mode: "error500", AfterCommit: true, Skip: 2}))
	_, err = a.Drain(f.ctx, f.input())
	require.Error(t, err)
	require.NoError(t, f.admin.Fault(f.ctx, f.org.ClientID, sandbox.Fault{Mode: "timeout", DelayMS: 1500, Skip: 1}))
	_, err = a.Drain(f.ctx, f.input())
	require.Error(t, err)
	assert.Equal(t, 6, int(f.queue().Pending), "nothing leaves the queue before the CRM accepted it")

	// The session expires mid-batch: the client logs in again.
	require.NoError(t, f.admin.Fault(f.ctx, f.org.ClientID, sandbox.Fault{Mode: "expire_session"}))
	res, err := a.Drain(f.ctx, f.input())
	require.NoError(t, err)
	assert.Equal(t, crmsync.StateIdle, res.State)
	assert.Equal(t, 6, res.Sent)
	assert.Equal(t, 0, int(f.queue().Pending))

	contacts := f.byExternalID(f.records("Contact"))
	require.Len(t, contacts, 3)
	assert.Equal(t, "Anita", contacts[f.donors[0].String()]["FirstName"], "override if empty kept the CRM's value")
	assert.Equal(t, "Pérez A", contacts[f.donors[0].String()]["LastName"], "always override replaced it")
	assert.Equal(t, "Ana", contacts[f.donors[1].String()]["FirstName"])
	rds := f.byExternalID(f.records("npe03__Recurring_Donation__c"))
	require.Len(t, rds, 3)
	rd := rds[f.donations[0].String()]
	assert.Equal(t, 1500.5, rd["npe03__Amount__c"])
	assert.Equal(t, "Active", rd["npsp__Status__c"])
	assert.Equal(t, contacts[f.donors[0].String()]["Id"], rd["npe03__Contact__c"], "linked to its donor's contact")

	// A pause, written as the manage area writes it (with its version, which queues the sync in the
	// same transaction), lands as the mapped status.
	require.NoError(t, f.scope.Tx(f.ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(f.ctx, `UPDATE donations SET status = 'paused', paused_reason = 'by_org' WHERE organization_id = $1 AND id = $2`,
			f.scope.OrgID, f.donations[0]); err != nil {
			return err
		}
		return history.Record(f.ctx, sharddb.Store(tx), f.scope.OrgID, history.Version{DonationID: f.donations[0], Actor: "system",
			Field: "status", Before: "active", After: "paused"})
	}))
	assert.Equal(t, 1, int(f.queue().Pending))
	_, err = a.Drain(f.ctx, f.input())
	require.NoError(t, err)
	assert.Equal(t, "Paused", f.byExternalID(f.records("npe03__Recurring_Donation__c"))[f.donations[0].String()]["npsp__Status__c"])

	// A donor the CRM refuses (no last name) stays failed with its request, and a retry queues it again.
	require.NoError(t, f.scope.Exec(f.ctx, `UPDATE donors SET last_name = '' WHERE organization_id = $1 AND id = $2`, f.scope.OrgID, f.donors[2]))
	f.enqueue(crmlink.Donor, f.donors[2])
	res, err = a.Drain(f.ctx, f.input())
	require.NoError(t, err)
	assert.Equal(t, 1, res.Failed)
	assert.Equal(t, 1, int(f.queue().Failed))
	n, err := f.scope.Store().RetryCRMChanges(f.ctx, sharddb.RetryCRMChangesParams{OrganizationID: f.scope.OrgID, IntegrationID: f.integ})
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	assert.Equal(t, 1, int(f.queue().Pending))
	assert.Equal(t, 0, int(f.queue().Failed), "the retried change is no longer failed")

	log := f.outcomes()
	assert.Equal(t, 1, log["query/session_expired"], "%v", log)
	assert.Equal(t, 3, log["upsert/failed"], "the 500, the timeout and the refused donor: %v", log)
}
