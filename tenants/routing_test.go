package tenants_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// An AR organisation's rows land in the AR shard only: no other shard has them, and a scope bound
// to a BR organisation cannot read them.
func TestOrganizationRowsLandOnlyInTheirCountryShard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt := tenantstest.Open(t)

	ar := tenants.Organization{ID: uuid.New(), Name: "Fundación Sur", Country: "AR"}
	br := tenants.Organization{ID: uuid.New(), Name: "Instituto Norte", Country: "BR"}
	require.NoError(t, tt.CreateOrganization(ctx, ar, ""))
	require.NoError(t, tt.CreateOrganization(ctx, br, ""))
	// Creating again (a retry) is harmless.
	require.NoError(t, tt.CreateOrganization(ctx, ar, ""))

	arScope, err := tt.ForOrganization(ctx, ar.ID)
	require.NoError(t, err)
	require.Equal(t, "AR", arScope.Country)
	donorID := uuid.New()
	require.NoError(t, arScope.Exec(ctx,
		`INSERT INTO donors (organization_id, id, email, first_name, last_name) VALUES ($1, $2, $3, 'Ana', 'Paz')`,
		arScope.OrgID, donorID, "ana@example.org"))

	for _, country := range config.Countries {
		pool, err := tt.Shard(country)
		require.NoError(t, err)
		var orgs, donors int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM organizations WHERE organization_id = $1`, ar.ID).Scan(&orgs))
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM donors WHERE organization_id = $1`, ar.ID).Scan(&donors))
		want := 0
		if country == "AR" {
			want = 1
		}
		require.Equal(t, want, orgs, "organization row in shard %s", country)
		require.Equal(t, want, donors, "donor row in shard %s", country)
	}

	brScope, err := tt.ForOrganization(ctx, br.ID)
	require.NoError(t, err)
	require.Equal(t, "BR", brScope.Country)
	var seen int
	require.NoError(t, brScope.QueryRow(ctx, `SELECT count(*) FROM donors WHERE id = $1`, donorID).Scan(&seen))
	require.Zero(t, seen, "a BR-bound query must not see AR rows")

	dir, err := tt.GetOrganization(ctx, ar.ID)
	require.NoError(t, err)
	require.Equal(t, "shard_ar", dir.Shard)
}

func TestUnknownOrganizationAndCountry(t *testing.T) {
	t.Parallel()
	tt := tenantstest.Open(t)
	_, err := tt.ForOrganization(context.Background(), uuid.New())
	require.ErrorIs(t, err, tenants.ErrUnknownOrganization)
	_, err = tt.Shard("EC")
	require.ErrorIs(t, err, tenants.ErrUnknownCountry)
	err = tt.CreateOrganization(context.Background(), tenants.Organization{ID: uuid.New(), Name: "Fundación", Country: "EC"}, "")
	require.ErrorIs(t, err, tenants.ErrUnknownCountry)
}
