// Package seed creates the demo organisation, its logins, its campaigns and a year of donations for
// `make dev`. Every step is idempotent, so running it on every start is safe.
package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/gateways"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/onboarding"
	"github.com/aporta/aporta/workflows/subscription"
)

// Fixed ids keep the demo stable across runs.
var (
	DemoOrgID      = uuid.MustParse("0a1b2c3d-0000-4000-8000-00000000a001")
	DemoCampaignID = uuid.MustParse("0a1b2c3d-0000-4000-8000-00000000c001")
)

// Login is a seeded account.
type Login struct{ Role, Email, Password string }

// Logins are the demo accounts `make dev` prints.
var Logins = []Login{
	{"administrator", "admin@demo.aporta.test", "Demo-Aporta-2026"},
	{"operator", "operator@demo.aporta.test", "Demo-Aporta-2026"},
	{"staff", "staff@aporta.test", "Staff-Aporta-2026"},
}

// Deps are what seeding touches.
type Deps struct {
	Tenants  *tenants.Tenants
	Kratos   *identity.Kratos
	Flows    *identity.Flows // Kratos's public API, to give the staff login its second factor
	Keto     *identity.Keto
	Temporal client.Client
	Gateways *gateways.Service // connects the demo organisation to its sandbox MercadoPago account
	Cards    Cards             // saves the cards of the donations collection keeps charging (SandboxCards)
	Log      io.Writer         // how long each step of the history took (nil: nowhere)
	// History writes the demo organisation's year of history (the dev stack). Browser tests seed the
	// test stack without it: their specs need the logins and the demo form, not minutes of history.
	History bool
}

// Run seeds and writes the URL-free summary (logins, demo campaign) to out.
func Run(ctx context.Context, d Deps, out io.Writer) error {
	org := tenants.Organization{ID: DemoOrgID, Name: "Fundación Demo", Country: "AR"}
	if err := d.Tenants.CreateOrganization(ctx, org, ""); err != nil {
		return fmt.Errorf("organization: %w", err)
	}
	var staffTOTP string
	var adminID uuid.UUID
	for _, l := range Logins {
		id, err := ensureUser(ctx, d.Kratos, l)
		if err != nil {
			return fmt.Errorf("%s: %w", l.Email, err)
		}
		if l.Role == "administrator" {
			adminID = id
		}
		switch l.Role {
		case "staff":
			err = d.Keto.Grant(ctx, identity.NamespaceStaff, identity.StaffObject, identity.RelationMembers, id.String())
			if err == nil {
				staffTOTP, err = ensureTOTP(ctx, d, id, l)
			}
		default:
			if err = d.Tenants.AddMembership(ctx, id, DemoOrgID, l.Role); err == nil {
				err = d.Keto.Grant(ctx, identity.NamespaceOrganization, DemoOrgID.String(), l.Role+"s", id.String())
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", l.Email, err)
		}
	}
	if err := startOnboarding(ctx, d.Temporal, DemoOrgID.String()); err != nil {
		return fmt.Errorf("onboarding: %w", err)
	}
	if _, err := subscription.Start(ctx, d.Temporal, subscription.TaskQueue, DemoOrgID); err != nil {
		return fmt.Errorf("subscription: %w", err)
	}
	if err := connectGateway(ctx, d, adminID); err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	var h Counts
	if d.History {
		var err error
		if h, err = History(ctx, HistoryDeps{Tenants: d.Tenants, Campaigns: campaign.NewService(d.Tenants), Cards: d.Cards,
			Temporal: d.Temporal, Actor: adminID, Log: d.Log}); err != nil {
			return fmt.Errorf("history: %w", err)
		}
	} else if err := campaign.NewService(d.Tenants).Create(ctx, DemoOrgID, campaign.New{ // the form the browser tests use
		ID: DemoCampaignID, Slug: "dona-demo", Title: "Doná a Fundación Demo", Type: "fundraise",
		Description: "Campaña de demostración de Aporta.", Published: true,
	}); err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	fmt.Fprintln(out, "  Demo logins (organisation \"Fundación Demo\", AR):")
	for _, l := range Logins {
		fmt.Fprintf(out, "    %-14s %-28s %s\n", l.Role, l.Email, l.Password)
	}
	fmt.Fprintf(out, "    %-14s authenticator app (TOTP) secret %s\n", "staff 2FA", staffTOTP)
	fmt.Fprintln(out, "  Demo donation form     /d/dona-demo")
	if h.Written {
		fmt.Fprintf(out, "  Demo history           %d donors, %d donations, %d transactions written in %s\n",
			h.Donors, h.Donations, h.Transactions, h.Took.Round(time.Second))
	}
	return nil
}

// DemoGatewayAccount is the demo organisation's sandbox MercadoPago account (its nickname).
const DemoGatewayAccount = "FUNDACIONDEMO"

// connectGateway connects the demo organisation to its sandbox MercadoPago account through the
// same OAuth path an administrator takes, unless it is connected already, so the demo form takes
// donations on first run.
func connectGateway(ctx context.Context, d Deps, adminID uuid.UUID) error {
	scope, err := d.Tenants.ForOrganization(ctx, DemoOrgID)
	if err != nil {
		return err
	}
	_, err = d.Gateways.Store.ActiveConnection(ctx, scope, connections.MercadoPago)
	if !errors.Is(err, connections.ErrNotConnected) {
		return err
	}
	return d.Gateways.ConnectSandbox(ctx, scope, adminID, DemoGatewayAccount)
}

func ensureUser(ctx context.Context, k *identity.Kratos, l Login) (uuid.UUID, error) {
	id, err := k.CreateUser(ctx, identity.NewUser{
		Email: l.Email, FirstName: "Demo", LastName: titleOf(l.Role), Password: l.Password, Verified: true,
	})
	if errors.Is(err, identity.ErrExists) {
		id, found, err := k.FindByEmail(ctx, l.Email)
		if err == nil && !found {
			err = fmt.Errorf("identity exists but was not found")
		}
		return id, err
	}
	return id, err
}

// ensureTOTP gives the staff login its second factor (the staff console requires it) and returns
// the secret, for people to add to an authenticator app and for browser tests to compute codes.
func ensureTOTP(ctx context.Context, d Deps, id uuid.UUID, l Login) (string, error) {
	secret, ok, err := d.Kratos.TOTPSecret(ctx, id)
	if err != nil || ok {
		return secret, err
	}
	return d.Flows.EnrollTOTP(ctx, d.Kratos, l.Email, l.Password)
}

func titleOf(role string) string {
	return map[string]string{"administrator": "Administradora", "operator": "Operador", "staff": "Staff"}[role]
}

// startOnboarding starts the organisation's onboarding workflow; the seeded users are verified, so
// the verification step is complete. Starting it again is a no-op (same workflow id).
func startOnboarding(ctx context.Context, c client.Client, orgID string) error {
	_, err := c.SignalWithStartWorkflow(ctx, onboarding.WorkflowID(orgID), onboarding.SignalStepCompleted,
		onboarding.StepVerification,
		client.StartWorkflowOptions{TaskQueue: onboarding.TaskQueue},
		onboarding.Workflow, onboarding.Input{OrganizationID: orgID})
	return err
}
