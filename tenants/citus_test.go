package tenants_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// The live catalog of every migrated shard follows the Citus co-location rules.
func TestShardSchemasFollowCitusRules(t *testing.T) {
	t.Parallel()
	tt := tenantstest.Open(t)
	for _, country := range config.Countries {
		pool, err := tt.Shard(country)
		require.NoError(t, err)
		violations, err := tenants.CitusViolations(context.Background(), pool)
		require.NoError(t, err)
		require.Empty(t, violations, "shard %s", country)
	}
}

// The check catches each kind of break (inside a rolled-back transaction on a real shard).
func TestCitusViolationsCatchesBreaks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := tenantstest.Open(t).Shard("AR")
	require.NoError(t, err)
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()

	_, err = tx.Exec(ctx, `
		CREATE TABLE bad_pk (organization_id uuid NOT NULL, id uuid PRIMARY KEY);
		CREATE TABLE bad_unique (organization_id uuid NOT NULL, id uuid NOT NULL, email text UNIQUE,
		                         PRIMARY KEY (organization_id, id));
		CREATE TABLE bad_fk (organization_id uuid NOT NULL, id uuid NOT NULL, donor_id uuid NOT NULL,
		                     PRIMARY KEY (organization_id, id));
		CREATE UNIQUE INDEX ON donors (id);
		ALTER TABLE bad_fk ADD CONSTRAINT bad_fk_donor FOREIGN KEY (donor_id) REFERENCES donors (id);
		CREATE TABLE no_pk (organization_id uuid NOT NULL);
		CREATE TABLE bad_reference (code text PRIMARY KEY, org uuid REFERENCES organizations (organization_id));`)
	require.NoError(t, err)

	violations, err := tenants.CitusViolations(ctx, tx)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{
		"bad_pk: constraint bad_pk_pkey lacks organization_id",
		"bad_unique: constraint bad_unique_email_key lacks organization_id",
		"bad_fk: foreign key bad_fk_donor must join on organization_id",
		"no_pk: no primary key",
		"reference table bad_reference: foreign key bad_reference_org_fkey points at tenant table organizations",
	}, violations)
}
