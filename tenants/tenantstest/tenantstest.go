// Package tenantstest connects integration tests to the running test stack (deploy/stack.sh test).
// Without the stack, tests skip; under `make test` (APORTA_REQUIRE_STACK=1) they fail instead, so a
// broken stack can never pass as green.
package tenantstest

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
)

// Config returns the stack's configuration, or skips/fails the test without it.
func Config(t testing.TB) *config.Config {
	t.Helper()
	if os.Getenv("APORTA_DIRECTORY_DSN") == "" {
		if os.Getenv("APORTA_REQUIRE_STACK") != "" {
			t.Fatal("APORTA_REQUIRE_STACK is set but the stack's environment is missing")
		}
		t.Skip("no test stack: run `make test`, or `source .data-test/env` while one runs")
	}
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// Citus skips a test that needs the shards on a Citus cluster when the stack runs plain PostgreSQL
// (deploy/stack.sh with APORTA_CITUS=0); the stack's default, and make test, is Citus.
func Citus(t testing.TB) {
	t.Helper()
	Config(t)
	if os.Getenv("APORTA_CITUS") != "1" {
		t.Skip("the stack runs plain PostgreSQL (APORTA_CITUS=0)")
	}
}

// Open returns tenants connected to the migrated stack, closed when the test ends.
func Open(t testing.TB) *tenants.Tenants {
	t.Helper()
	return OpenWith(t, nil)
}

// OpenWith is Open with pools whose settings change (if not nil) alters from the stack's configuration.
func OpenWith(t testing.TB, change func(db *config.DBConfig)) *tenants.Tenants {
	t.Helper()
	cfg := Config(t)
	db := cfg.DB
	if change != nil {
		change(&db)
	}
	tt, err := tenants.Open(context.Background(), cfg.DirectoryDSN, cfg.ShardDSNs, db)
	if err != nil {
		t.Fatalf("tenants: %v", err)
	}
	t.Cleanup(tt.Close)
	return tt
}

// Organization creates org (tz "" for its country's time zone) and returns its scope.
func Organization(t testing.TB, tt *tenants.Tenants, org tenants.Organization, tz string) tenants.Scope {
	t.Helper()
	ctx := context.Background()
	if err := tt.CreateOrganization(ctx, org, tz); err != nil {
		t.Fatalf("create organization: %v", err)
	}
	scope, err := tt.ForOrganization(ctx, org.ID)
	if err != nil {
		t.Fatalf("organization scope: %v", err)
	}
	return scope
}

// ArgentineOrganization creates an AR organisation in Buenos Aires time, named prefix plus the start
// of its id, with the given status and plan, and returns its scope (scope.OrgID is the id).
func ArgentineOrganization(t testing.TB, tt *tenants.Tenants, prefix, status, plan string) tenants.Scope {
	t.Helper()
	id := uuid.New()
	Organization(t, tt, tenants.Organization{ID: id, Name: prefix + " " + id.String()[:6], Country: "AR"},
		"America/Argentina/Buenos_Aires")
	return SetStatus(t, tt, id, status, plan)
}

// SetStatus gives the organisation a status (enabled, say) and a plan, and returns its scope.
func SetStatus(t testing.TB, tt *tenants.Tenants, orgID uuid.UUID, status, plan string) tenants.Scope {
	t.Helper()
	ctx := context.Background()
	scope, err := tt.ForOrganization(ctx, orgID)
	if err != nil {
		t.Fatalf("organization scope: %v", err)
	}
	if err := scope.Exec(ctx, "UPDATE organizations SET status = $2, plan_code = $3 WHERE organization_id = $1",
		orgID, status, plan); err != nil {
		t.Fatalf("organization status and plan: %v", err)
	}
	return scope
}

// Campaign creates a fundraising campaign of the organisation in ARS, its slug and title prefix plus the start of
// its id, and returns its id.
func Campaign(t testing.TB, scope tenants.Scope, prefix string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	if err := scope.Exec(context.Background(), `INSERT INTO campaigns (organization_id, id, slug, title, type, currency)
		VALUES ($1, $2, $3, $3, 'fundraise', 'ARS')`, scope.OrgID, id, prefix+"-"+id.String()[:8]); err != nil {
		t.Fatalf("campaign: %v", err)
	}
	return id
}

// Listeners gives the organisation a webhook endpoint that takes events and a CRM integration (with credentials
// that open nothing), so that every row a write queues for them is written.
func Listeners(t testing.TB, scope tenants.Scope, events []string) {
	t.Helper()
	ctx := context.Background()
	if err := scope.Exec(ctx, `INSERT INTO webhook_endpoints (organization_id, id, url, events, secret, key_id)
		VALUES ($1, $2, 'https://example.org/hook', $3, '\x00', 'k')`, scope.OrgID, uuid.New(), events); err != nil {
		t.Fatalf("webhook endpoint: %v", err)
	}
	if err := scope.Exec(ctx, `INSERT INTO crm_integrations (organization_id, id, name, login_url, client_id, client_secret, key_id)
		VALUES ($1, $2, 'CRM', 'https://login.example.org', 'c', '\x00', 'k')`, scope.OrgID, uuid.New()); err != nil {
		t.Fatalf("CRM integration: %v", err)
	}
}

// Fixture is an enabled Argentine organisation (ArgentineOrganization) with a campaign (Campaign) and listeners for
// events (Listeners), so that every row a write queues for them is written; a test writes and reads its rows with
// Exec and One.
type Fixture struct {
	T        testing.TB
	Ctx      context.Context
	Scope    tenants.Scope
	Campaign uuid.UUID
}

// NewFixture makes a Fixture on the test stack: the organisation named name on plan, its campaign's slug prefixed.
func NewFixture(t testing.TB, name, plan, campaignPrefix string, events []string) *Fixture {
	t.Helper()
	f := &Fixture{T: t, Ctx: context.Background()}
	f.Scope = ArgentineOrganization(t, Open(t), name, "enabled", plan)
	f.Campaign = Campaign(t, f.Scope, campaignPrefix)
	Listeners(t, f.Scope, events)
	return f
}

// Exec runs a statement in the organisation's shard, bound to it.
func (f *Fixture) Exec(sql string, args ...any) {
	f.T.Helper()
	if err := f.Scope.Exec(f.Ctx, sql, args...); err != nil {
		f.T.Fatalf("exec: %v", err)
	}
}

// One scans the single value a query answers into dest.
func (f *Fixture) One(dest any, sql string, args ...any) {
	f.T.Helper()
	if err := f.Scope.QueryRow(f.Ctx, sql, args...).Scan(dest); err != nil {
		f.T.Fatalf("query: %v", err)
	}
}

// RemoteCommands connects to the country's shard coordinator with citus.log_remote_commands on, closed when the
// test ends; the function answers what the connection has sent on to the workers so far, each command as Citus
// logs it ("issuing …").
func RemoteCommands(t testing.TB, country string) (*pgx.Conn, func() []string) {
	t.Helper()
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(Config(t).ShardDSNs[country])
	if err != nil {
		t.Fatalf("shard %s: %v", country, err)
	}
	var mu sync.Mutex
	var remote []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		if strings.HasPrefix(n.Message, "issuing ") {
			mu.Lock()
			remote = append(remote, n.Message)
			mu.Unlock()
		}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close(ctx) })
	if _, err := conn.Exec(ctx, `SET citus.log_remote_commands = on`); err != nil {
		t.Fatalf("log remote commands: %v", err)
	}
	return conn, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(remote)
	}
}
