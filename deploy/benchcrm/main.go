// Command benchcrm measures the CRM sync (issue 16): N donation changes drained through the sync
// activity into the stack's sandbox CRM in composite batches, beside the reference of writing the
// same kind of record one call per record, measured in the same run.
//
//	go run ./deploy/benchcrm -changes 10000 -reference 1000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/crm/sandbox"
	"github.com/aporta/aporta/internal/crmlink"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/crmsync"
)

func main() {
	changes := flag.Int("changes", 10_000, "donation changes to sync")
	reference := flag.Int("reference", 1_000, "records written one call each for the reference rate")
	flag.Parse()
	ctx := context.Background()
	cfg, err := config.FromEnv()
	if err == nil {
		err = cfg.DevOnly("benchcrm") // it writes test data straight into the databases
	}
	check(err)
	t, err := tenants.Open(ctx, cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	check(err)
	defer t.Close()
	admin := sandbox.Admin{BaseURL: os.Getenv("APORTA_SANDBOX_CRM_URL")}
	if admin.BaseURL == "" {
		log.Fatal("APORTA_SANDBOX_CRM_URL is not set: run on the stack (deploy/stack.sh test)")
	}
	vault, err := crmlink.NewVault(ctx, cfg)
	check(err)
	// Room for both runs: the batched sync's calls and the reference's, with no park.
	org, err := admin.NewOrg(ctx, *changes+*reference+1000)
	check(err)

	scope, integ := setup(ctx, t, vault, admin, org, *changes)

	// The sync: the workflow's activity, batch after batch, until the queue is empty.
	acts := &crmsync.Activities{Tenants: t, Vault: vault, ParkFor: time.Hour}
	in := crmsync.Input{OrganizationID: scope.OrgID.String(), IntegrationID: integ.String()}
	start := time.Now()
	for {
		res, err := acts.Drain(ctx, in)
		check(err)
		if res.State != crmsync.StateMore {
			break
		}
	}
	took := time.Since(start)
	q := scope.Store()
	left, err := q.CRMQueueCounts(ctx, sharddb.CRMQueueCountsParams{OrganizationID: scope.OrgID, IntegrationID: integ})
	check(err)
	calls, err := q.CountCRMRequests(ctx, sharddb.CountCRMRequestsParams{OrganizationID: scope.OrgID, IntegrationID: integ})
	check(err)
	written, err := admin.Records(ctx, org.ClientID, crm.SObjects[crm.ObjectRecurringDonation])
	check(err)
	if left.Pending != 0 || left.Failed != 0 || len(written) != *changes {
		log.Fatalf("crm sync incomplete: %d pending, %d failed, %d of %d records in the CRM", left.Pending, left.Failed, len(written), *changes)
	}

	// The reference: the same object written one record per call (an upsert by external id each).
	client := vault.Client(admin.Credentials(org), nil)
	refStart := time.Now()
	for i := range *reference {
		_, err := client.Upsert(ctx, crm.SObjects[crm.ObjectRecurringDonation], sandbox.ExternalIDField,
			[]crm.Record{{sandbox.ExternalIDField: fmt.Sprintf("reference-%d", i), "npe03__Amount__c": 1500.5}})
		check(err)
	}
	refTook := time.Since(refStart)

	rate := float64(*changes) / took.Seconds()
	refRate := float64(*reference) / refTook.Seconds()
	fmt.Printf("crm sync, %d donation changes: %.0f records/s in %d calls (%.1f s); one call per record: %.0f records/s (%d measured), %d calls -> %.1fx the rate, %.1f%% of the calls\n",
		*changes, rate, calls, took.Seconds(), refRate, *reference, *changes, rate/refRate, 100*float64(calls)/float64(*changes))
}

// setup is an Argentine organisation with n monthly donations, connected to the sandbox org as the
// setup page does (sealed secret, describes), donations mapped to NPSP recurring donations, and one
// pending change per donation written by the same Enqueue the changing transactions call.
func setup(ctx context.Context, t *tenants.Tenants, vault *crmlink.Vault, admin sandbox.Admin, org sandbox.Org, n int) (tenants.Scope, uuid.UUID) {
	o := tenants.Organization{ID: uuid.New(), Name: "Fundación CRM Benchmark", Country: "AR"}
	check(t.CreateOrganization(ctx, o, ""))
	scope, err := t.ForOrganization(ctx, o.ID)
	check(err)
	campaign := uuid.New()
	check(scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, type, currency) VALUES ($1, $2, $3, 'Invierno', 'fundraise', 'ARS')`,
		o.ID, campaign, "crm-bench-"+campaign.String()[:8]))
	check(scope.Exec(ctx, `INSERT INTO donors (organization_id, id, email, first_name, last_name)
		SELECT $1, gen_random_uuid(), 'donor' || i || '@example.org', 'Ana', 'Pérez' FROM generate_series(1, $2::int) i`, o.ID, n))
	check(scope.Exec(ctx, `INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency)
		SELECT organization_id, gen_random_uuid(), $2, id, 150050, 'ARS' FROM donors WHERE organization_id = $1`, o.ID, campaign))

	client := vault.Client(admin.Credentials(org), nil)
	describes := map[string]crm.Describe{}
	for object, sobject := range crm.SObjects {
		d, err := client.Describe(ctx, sobject)
		check(err)
		describes[object] = d
	}
	data, err := json.Marshal(describes)
	check(err)
	integ := uuid.New()
	sealed, err := vault.Seal(ctx, o.ID, integ, org.ClientSecret)
	check(err)
	q := scope.Store()
	_, err = q.CreateCRMIntegration(ctx, sharddb.CreateCRMIntegrationParams{OrganizationID: o.ID, ID: integ, Name: "Sandbox",
		LoginUrl: admin.BaseURL, ClientID: org.ClientID, ClientSecret: sealed.Blob, KeyID: sealed.KeyID,
		ExternalIDField: sandbox.ExternalIDField, Describes: data})
	check(err)
	for _, r := range []struct{ attr, field, values string }{{"amount", "npe03__Amount__c", `{}`},
		{"status", "npsp__Status__c", `{"pending": "Active", "active": "Active"}`}} {
		_, err := q.CreateCRMRule(ctx, sharddb.CreateCRMRuleParams{OrganizationID: o.ID, IntegrationID: integ, ID: uuid.New(),
			ClassName: crmlink.Donation, Attribute: r.attr, CrmObject: crm.ObjectRecurringDonation, Field: r.field,
			SyncRule: crmlink.AlwaysOverride, ValueMap: []byte(r.values)})
		check(err)
	}
	rows, err := scope.Query(ctx, `SELECT id FROM donations WHERE organization_id = $1`, o.ID)
	check(err)
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		check(rows.Scan(&id))
		ids = append(ids, id)
	}
	check(rows.Err())
	for _, id := range ids {
		check(crmlink.Enqueue(ctx, q, o.ID, crmlink.Donation, id))
	}
	return scope, integ
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
