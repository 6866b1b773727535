// Command seedpse creates a Colombian organisation whose campaign a local processor (dLocal, which
// offers PSE bank debits in Colombia) routes, for the browser test of the off-site bank debit
// (web/e2e/bankdebit.spec.ts) and for trying it on the dev stack. Each run makes a new organisation
// and prints its form's slug and its merchant's login as JSON.
//
// It takes the stack from the environment (APORTA_DIRECTORY_DSN, APORTA_SHARD_DSNS, the secrets key…):
//
//	go run ./deploy/seedpse
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	tt, err := tenants.Open(ctx, cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	if err != nil {
		return err
	}
	defer tt.Close()
	conns, err := connections.Open(ctx, cfg)
	if err != nil {
		return err
	}
	id := uuid.New()
	name := "Fundación PSE " + id.String()[:6]
	if err := tt.CreateOrganization(ctx, tenants.Organization{ID: id, Name: name, Country: "CO"}, ""); err != nil {
		return fmt.Errorf("organization: %w", err)
	}
	scope, err := tt.ForOrganization(ctx, id)
	if err != nil {
		return err
	}
	if err := scope.Exec(ctx, "UPDATE organizations SET status = 'enabled', plan_code = 'essential_monthly' WHERE organization_id = $1", id); err != nil {
		return fmt.Errorf("enable: %w", err)
	}
	campaigns := campaign.NewService(tt)
	c, err := campaigns.CreateFromInput(ctx, id, campaign.Input{Title: "Dona con PSE", Type: "fundraise", Channel: "public",
		Description: "Una donación por única vez desde tu banco.", AllowOneTime: true, AllowOtherAmount: true,
		Amounts: []campaign.Amount{{Amount: "20000"}, {Amount: "50000"}}})
	if err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	if c, err = campaigns.SetPublished(ctx, id, c.ID, true); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	procID := uuid.New()
	m, err := processing.New(cfg, conns.Box).Onboard(ctx, scope, procID, name, 399)
	if err != nil {
		return fmt.Errorf("processor: %w", err)
	}
	q := scope.Store()
	if _, err := q.InsertPaymentProcessor(ctx, sharddb.InsertPaymentProcessorParams{OrganizationID: id, ID: procID,
		Family: processing.Local, GatewayName: "dlocal", SoftDescriptor: "FUNDACION PSE", Position: 1, GatewayAccountName: name,
		MerchantLogin: &m.Login, PublicKey: &m.PublicKey, Secret: m.Sealed.Blob, KeyID: &m.Sealed.KeyID}); err != nil {
		return fmt.Errorf("processor row: %w", err)
	}
	if err := q.AddProcessorCampaigns(ctx, sharddb.AddProcessorCampaignsParams{OrganizationID: id, ProcessorID: procID,
		CampaignIds: []uuid.UUID{c.ID}}); err != nil {
		return fmt.Errorf("processor rule: %w", err)
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]string{"organization": id.String(), "slug": c.Slug, "login": m.Login})
}
