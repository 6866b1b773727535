package agency_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/agency"
	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/identity"
)

// TestKetoAgencyPermitMatrix walks every agency role × grant combination, and every organisation
// role, through the OPL's permits: what each may do on its agency, on an authorised and an
// unauthorised campaign, on a donation it acquired and on another agency's.
func TestKetoAgencyPermitMatrix(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	k := s.Keto
	org, otherOrg := uuid.NewString(), uuid.NewString()
	ag, otherAg := uuid.NewString(), uuid.NewString()
	camp, unauthorised, otherCamp := uuid.NewString(), uuid.NewString(), uuid.NewString()
	// don was acquired on camp; offCamp on a campaign no longer authorised to the agency.
	don, otherDon, offCamp := uuid.NewString(), uuid.NewString(), uuid.NewString()
	require.NoError(t, k.Relate(ctx, identity.NamespaceAgency, ag, identity.RelationOrganizations, identity.NamespaceOrganization, org))
	require.NoError(t, k.Relate(ctx, identity.NamespaceAgency, otherAg, identity.RelationOrganizations, identity.NamespaceOrganization, otherOrg))
	require.NoError(t, k.Relate(ctx, identity.NamespaceCampaign, camp, identity.RelationAgencies, identity.NamespaceAgency, ag))
	require.NoError(t, k.Relate(ctx, identity.NamespaceCampaign, otherCamp, identity.RelationAgencies, identity.NamespaceAgency, otherAg))
	require.NoError(t, k.Relate(ctx, identity.NamespaceDonation, don, identity.RelationAgencies, identity.NamespaceAgency, ag))
	require.NoError(t, k.Relate(ctx, identity.NamespaceDonation, otherDon, identity.RelationAgencies, identity.NamespaceAgency, otherAg))
	require.NoError(t, k.Relate(ctx, identity.NamespaceDonation, offCamp, identity.RelationAgencies, identity.NamespaceAgency, ag))
	for d, c := range map[string]string{don: camp, otherDon: otherCamp, offCamp: unauthorised} {
		require.NoError(t, k.Relate(ctx, identity.NamespaceDonation, d, identity.RelationCampaigns, identity.NamespaceCampaign, c))
	}

	check := func(ns, obj, permit, user string) bool {
		ok, err := k.Check(ctx, ns, obj, permit, user)
		require.NoError(t, err)
		return ok
	}
	roles := map[string]string{"manager": identity.RelationManagers, "operator": identity.RelationOperators, "supervisor": identity.RelationSupervisors}
	for role, rel := range roles {
		for _, acq := range []bool{false, true} {
			for _, mgmt := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/acquisition=%v/management=%v", role, acq, mgmt), func(t *testing.T) {
					u := uuid.NewString()
					require.NoError(t, k.Grant(ctx, identity.NamespaceAgency, ag, rel, u))
					if acq {
						require.NoError(t, k.Grant(ctx, identity.NamespaceAgency, ag, identity.RelationAcquisition, u))
					}
					if mgmt {
						require.NoError(t, k.Grant(ctx, identity.NamespaceAgency, ag, identity.RelationManagement, u))
					}
					supervises := role != "operator"
					require.True(t, check(identity.NamespaceAgency, ag, agency.PermitWork, u))
					require.False(t, check(identity.NamespaceAgency, ag, agency.PermitAdminister, u), "agency people never run the agency")
					require.Equal(t, supervises, check(identity.NamespaceAgency, ag, agency.PermitSupervise, u))
					require.Equal(t, acq, check(identity.NamespaceAgency, ag, agency.PermitAcquire, u))
					require.Equal(t, mgmt, check(identity.NamespaceAgency, ag, agency.PermitManageDonors, u))
					require.Equal(t, acq, check(identity.NamespaceCampaign, camp, agency.PermitAcquire, u))
					require.False(t, check(identity.NamespaceCampaign, unauthorised, agency.PermitAcquire, u))
					require.True(t, check(identity.NamespaceDonation, don, agency.PermitView, u))
					require.Equal(t, mgmt, check(identity.NamespaceDonation, don, agency.PermitManage, u))
					require.False(t, check(identity.NamespaceDonation, offCamp, agency.PermitManage, u), "its campaign is no longer authorised")
					require.Equal(t, supervises, check(identity.NamespaceDonation, don, agency.PermitCorrect, u), "not their own acquisition")
					// Nothing of another agency, another organisation's least of all.
					for _, p := range []string{agency.PermitWork, agency.PermitAcquire, agency.PermitManageDonors, agency.PermitSupervise} {
						require.False(t, check(identity.NamespaceAgency, otherAg, p, u), p)
					}
					require.False(t, check(identity.NamespaceCampaign, otherCamp, agency.PermitAcquire, u))
					for _, p := range []string{agency.PermitView, agency.PermitManage, agency.PermitCorrect} {
						require.False(t, check(identity.NamespaceDonation, otherDon, p, u), p)
					}
					// The agent who made an acquisition corrects it, as long as they work for the agency.
					require.NoError(t, k.Relate(ctx, identity.NamespaceDonation, don, identity.RelationAgents, identity.NamespaceUser, u))
					require.True(t, check(identity.NamespaceDonation, don, agency.PermitCorrect, u))
					for _, r := range []string{rel, identity.RelationAcquisition, identity.RelationManagement} {
						require.NoError(t, k.Revoke(ctx, identity.NamespaceAgency, ag, r, u))
					}
					for _, p := range []string{agency.PermitView, agency.PermitManage, agency.PermitCorrect} {
						require.False(t, check(identity.NamespaceDonation, don, p, u), "discarded: %s", p)
					}
					require.False(t, check(identity.NamespaceCampaign, camp, agency.PermitAcquire, u))
				})
			}
		}
	}
	t.Run("organisation roles", func(t *testing.T) {
		for role, administers := range map[string]bool{"administrators": true, "agency_admins": true, "operators": false, "supervisors": false} {
			u := uuid.NewString()
			require.NoError(t, k.Grant(ctx, identity.NamespaceOrganization, org, role, u))
			require.Equal(t, administers, check(identity.NamespaceOrganization, org, "manage_agencies", u), role)
			require.Equal(t, administers, check(identity.NamespaceAgency, ag, agency.PermitAdminister, u), role)
			require.False(t, check(identity.NamespaceAgency, otherAg, agency.PermitAdminister, u), role)
			require.Equal(t, role != "agency_admins", check(identity.NamespaceOrganization, org, "view", u), role)
			for _, p := range []string{agency.PermitWork, agency.PermitAcquire} {
				require.False(t, check(identity.NamespaceAgency, ag, p, u), "%s %s: the organisation side does not work the street", role, p)
			}
		}
	})
}
