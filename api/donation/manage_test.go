package donation_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

type mdetail struct {
	Donation struct {
		UUID   string `json:"uuid"`
		Amount struct {
			Minor     int64  `json:"minor"`
			Currency  string `json:"currency"`
			Formatted string `json:"formatted"`
		} `json:"amount"`
		Status         string  `json:"status"`
		PausedReason   *string `json:"paused_reason"`
		DiscardReason  *string `json:"discard_reason"`
		NextChargeDate *string `json:"next_charge_date"`
		Campaign       struct {
			Title string `json:"title"`
		} `json:"campaign"`
	} `json:"donation"`
	Donor struct {
		UUID      string `json:"uuid"`
		FirstName string `json:"first_name"`
		City      string `json:"city"`
		Gender    string `json:"gender"`
	} `json:"donor"`
	PaymentMethod *struct {
		UUID        string `json:"uuid"`
		LastFour    string `json:"last_four"`
		Brand       string `json:"brand"`
		ExpiryMonth int    `json:"expiry_month"`
	} `json:"payment_method"`
	Transactions []struct {
		Status string  `json:"status"`
		Period *string `json:"period"`
	} `json:"transactions"`
	Upgrade *struct {
		ID         string `json:"id"`
		Percentage string `json:"percentage"`
		Period     int    `json:"period"`
	} `json:"upgrade"`
	VersionsCount int `json:"versions_count"`
	Collect       *struct {
		Status   string `json:"status"`
		Approved bool   `json:"approved"`
	} `json:"collect"`
}

// enabledAdmin is the administrator of a new AR organisation enabled on the Essential plan, in
// Buenos Aires' time, and the organisation's scope.
func enabledAdmin(t *testing.T, s *apitest.Stack) (*apitest.Client, tenants.Scope) {
	t.Helper()
	ctx := context.Background()
	admin := s.NewOrgAdmin(t, "AR")
	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	require.NoError(t, scope.Exec(ctx, "UPDATE organizations SET status = 'enabled', plan_code = 'essential_monthly', timezone = 'America/Argentina/Buenos_Aires' WHERE organization_id = $1", admin.OrgID))
	return admin, scope
}

// manageFixture: an AR organisation with its administrator, a published campaign and one monthly
// donation made through the public form (collected by the stack's worker).
func manageFixture(t *testing.T, s *apitest.Stack) (*apitest.Client, string, string) {
	t.Helper()
	admin, _ := enabledAdmin(t, s)
	cp := apitest.PublishedCampaign(t, s.Tenants, admin.OrgID, campaign.Input{Title: "Campaña gestión", Type: "fundraise", Channel: "public",
		AllowOneTime: true, AllowOtherAmount: true, Amounts: []campaign.Amount{{Amount: "500"}, {Amount: "1000"}}, ImmediateCharge: true})
	return admin, cp.Slug, cp.ID.String()
}

func donate(t *testing.T, s *apitest.Stack, slug string, recurrency int, amount any, email string) string {
	t.Helper()
	a := post(t, s.Server.URL+"/d/"+slug, payload(token(t, s.Config, "APRO"), recurrency, amount, email, uuid.NewString()))
	require.Contains(t, []int{http.StatusCreated, http.StatusOK}, a.Status, a.Message)
	return a.Donation
}

func TestManageDonation(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, campID := manageFixture(t, s)
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, admin.OrgID)
	require.NoError(t, err)
	email := "ana-" + uuid.NewString()[:8] + "@example.com"
	id := donate(t, s, slug, 1, 1000, email)
	path := "/manage/api/donations/" + id
	stored := func() string { // the donation's status in its row
		var st string
		require.NoError(t, scope.QueryRow(ctx, "SELECT status FROM donations WHERE organization_id=$1 AND id=$2", admin.OrgID, id).Scan(&st))
		return st
	}

	// The form charged the first period (and moved the row's next charge date); the collection workflow reads that
	// period back on its own. Wait until it has (its next period moved): a change made while its read-back is in
	// flight reaches the row only once it returns.
	require.Eventually(t, func() bool {
		v, err := s.Temporal.QueryWorkflow(ctx, collection.WorkflowID(id), "", collection.QueryState)
		var st collection.State
		return err == nil && v.Get(&st) == nil && st.NextChargeDate.After(time.Now())
	}, 30*time.Second, 300*time.Millisecond)

	var d mdetail
	res := admin.JSON(http.MethodGet, path, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)
	require.Equal(t, "active", d.Donation.Status)
	require.Equal(t, int64(100000), d.Donation.Amount.Minor)
	require.Equal(t, "Campaña gestión", d.Donation.Campaign.Title)
	require.NotNil(t, d.PaymentMethod)
	require.Equal(t, "3704", d.PaymentMethod.LastFour)
	require.NotEmpty(t, d.Transactions)

	t.Run("pause restore", func(t *testing.T) {
		res := admin.JSON(http.MethodPost, path+"/pause", map[string]string{"reason": "nope"})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		p := apitest.OK[mdetail](t, admin, http.MethodPost, path+"/pause", map[string]string{})
		require.Equal(t, "paused", p.Donation.Status)
		require.Equal(t, "by_org", *p.Donation.PausedReason)
		require.Equal(t, "paused", stored())
		res = admin.JSON(http.MethodPost, path+"/pause", nil)
		require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
		res = admin.JSON(http.MethodPost, path+"/restore", nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res.Decode(t, &p)
		require.Equal(t, "active", p.Donation.Status)
		require.Nil(t, p.Donation.PausedReason)
		res = admin.JSON(http.MethodPost, path+"/restore", nil)
		require.Equal(t, http.StatusConflict, res.Status)
	})

	t.Run("collect payment", func(t *testing.T) {
		// This month is paid and restoring moved the next charge to next month: not due yet
		// (TestCollectNowChargesADuePeriodOnce collects a due one).
		var before int
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE organization_id=$1 AND donation_id=$2", admin.OrgID, id).Scan(&before))
		res := admin.JSON(http.MethodPost, path+"/collect_payment", nil)
		require.Equal(t, http.StatusConflict, res.Status, string(res.Body))
		require.Equal(t, "donation.collect_not_due", res.ErrorCode())
		var after int
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE organization_id=$1 AND donation_id=$2", admin.OrgID, id).Scan(&after))
		require.Equal(t, before, after)
	})

	t.Run("change amount", func(t *testing.T) {
		res := admin.JSON(http.MethodPatch, path, map[string]any{"amount": "1500,50"})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
		res = admin.JSON(http.MethodPatch, path, map[string]any{"amount": "1500.50"})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var p mdetail
		res.Decode(t, &p)
		require.Equal(t, int64(150050), p.Donation.Amount.Minor)
		res = admin.JSON(http.MethodPatch, path, map[string]any{"amount": 1600, "collect_day": 40})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		require.Equal(t, "donation.collect_day_invalid", res.ErrorCode())
		res = admin.JSON(http.MethodGet, path, nil)
		res.Decode(t, &p)
		require.Equal(t, int64(150050), p.Donation.Amount.Minor, "a bad collect day changes nothing")
	})

	t.Run("change collect day", func(t *testing.T) {
		var before mdetail
		admin.JSON(http.MethodGet, path, nil).Decode(t, &before)
		require.NotNil(t, before.Donation.NextChargeDate)
		next, err := time.Parse(time.DateOnly, (*before.Donation.NextChargeDate)[:10])
		require.NoError(t, err)
		day := 5
		if next.Day() == day {
			day = 6
		}
		for _, bad := range []any{0, 32, "x"} {
			res := admin.JSON(http.MethodPatch, path, map[string]any{"collect_day": bad})
			require.Contains(t, []int{http.StatusUnprocessableEntity, http.StatusBadRequest}, res.Status, "collect_day %v", bad)
		}
		// The period due next is not charged yet and stays the one charged: only its day moves.
		p := apitest.OK[mdetail](t, admin, http.MethodPatch, path, map[string]any{"collect_day": day})
		require.Equal(t, time.Date(next.Year(), next.Month(), day, 0, 0, 0, 0, time.UTC).Format(time.DateOnly), (*p.Donation.NextChargeDate)[:10])
		var stored *int
		require.NoError(t, scope.QueryRow(ctx, "SELECT collect_day FROM donations WHERE organization_id=$1 AND id=$2", admin.OrgID, id).Scan(&stored))
		require.Equal(t, day, *stored)
		res = admin.JSON(http.MethodPatch, path, map[string]any{"collect_day": nil})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res.Decode(t, &p)
		last := time.Date(next.Year(), next.Month()+1, 0, 0, 0, 0, 0, time.UTC)
		require.Equal(t, last.Format(time.DateOnly), (*p.Donation.NextChargeDate)[:10], "null is the last day of the month")
		require.NoError(t, scope.QueryRow(ctx, "SELECT collect_day FROM donations WHERE organization_id=$1 AND id=$2", admin.OrgID, id).Scan(&stored))
		require.Nil(t, stored)
	})

	t.Run("upgrades", func(t *testing.T) {
		res := admin.JSON(http.MethodPost, path+"/upgrades", map[string]any{"percentage": 10, "period": 5})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		res = admin.JSON(http.MethodPost, path+"/upgrades", map[string]any{"percentage": "10.5", "period": 3})
		require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
		var p mdetail
		res.Decode(t, &p)
		require.NotNil(t, p.Upgrade)
		require.Equal(t, "10.50", p.Upgrade.Percentage)
		up := p.Upgrade.ID
		res = admin.JSON(http.MethodPatch, path+"/upgrades/"+up, map[string]any{"percentage": 12, "period": 6})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res.Decode(t, &p)
		require.Equal(t, "12.00", p.Upgrade.Percentage)
		require.Equal(t, 6, p.Upgrade.Period)
		res = admin.JSON(http.MethodDelete, path+"/upgrades/"+up, nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		p = mdetail{}
		res.Decode(t, &p)
		require.Nil(t, p.Upgrade)
		res = admin.JSON(http.MethodDelete, path+"/upgrades/"+up, nil)
		require.Equal(t, http.StatusNotFound, res.Status)
	})

	t.Run("change card", func(t *testing.T) {
		var before int
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM payment_methods WHERE organization_id=$1", admin.OrgID).Scan(&before))
		bad := map[string]any{"gateway": map[string]any{"name": "mercadopago", "token": "x"}, "cc_number": "4509953566233704",
			"method_id": "visa", "bin": "450995", "last_four": "3704", "expiration_month": 11, "expiration_year": time.Now().Year() + 3}
		res := admin.JSON(http.MethodPost, path+"/payment_method", bad)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
		require.Equal(t, "card.data_refused", res.ErrorCode())
		var n int
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM payment_methods WHERE organization_id=$1", admin.OrgID).Scan(&n))
		require.Equal(t, before, n)
		old := d.PaymentMethod.UUID
		good := map[string]any{"gateway": map[string]any{"name": "mercadopago", "token": token(t, s.Config, "APRO")},
			"method_id": "visa", "bin": "450995", "last_four": "3704", "expiration_month": 12, "expiration_year": time.Now().Year() + 4,
			"cardholder_name": "Ana Pérez", "cardholder_id_type": "DNI", "cardholder_id_number": "12345678"}
		res = admin.JSON(http.MethodPost, path+"/payment_method", good)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var p mdetail
		res.Decode(t, &p)
		require.NotNil(t, p.PaymentMethod)
		_ = old // the sandbox saves the same card number as the same card: the row is updated in place
		var pmID string
		require.NoError(t, scope.QueryRow(ctx, "SELECT payment_method_id::text FROM donations WHERE organization_id=$1 AND id=$2", admin.OrgID, id).Scan(&pmID))
		require.Equal(t, p.PaymentMethod.UUID, pmID)
		require.Equal(t, 12, p.PaymentMethod.ExpiryMonth)
	})

	t.Run("edit donor", func(t *testing.T) {
		res := admin.JSON(http.MethodPatch, path+"/donor", map[string]any{"email": "no-at", "gender": "x"})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		res = admin.JSON(http.MethodPatch, path+"/donor", map[string]any{"first_name": "Anita", "city": "Rosario", "gender": "female"})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var p mdetail
		res.Decode(t, &p)
		require.Equal(t, "Anita", p.Donor.FirstName)
		require.Equal(t, "Rosario", p.Donor.City)
	})

	t.Run("versions and support", func(t *testing.T) {
		res := admin.JSON(http.MethodGet, path+"/versions", nil)
		require.Equal(t, http.StatusOK, res.Status)
		var v struct {
			Versions []struct {
				Field     string `json:"field"`
				Actor     string `json:"actor"`
				ActorType string `json:"actor_type"`
			} `json:"versions"`
			Total int `json:"total"`
		}
		res.Decode(t, &v)
		fields := map[string]bool{}
		for _, x := range v.Versions {
			if x.ActorType == "user" {
				require.Equal(t, admin.UserID.String(), x.Actor)
				fields[x.Field] = true
			}
		}
		for _, f := range []string{"status", "amount", "upgrade", "payment_method", "donor", "collect_day"} {
			require.True(t, fields[f], "version of %s", f)
		}
		res = admin.JSON(http.MethodGet, path+"/support", nil)
		require.Equal(t, http.StatusOK, res.Status)
		var sp struct {
			WorkflowID     string `json:"workflow_id"`
			WorkflowStatus string `json:"workflow_status"`
			LastPayments   []struct {
				PaymentID string `json:"payment_id"`
			} `json:"last_payments"`
		}
		res.Decode(t, &sp)
		require.Equal(t, "donation/"+id, sp.WorkflowID)
		require.Equal(t, "running", sp.WorkflowStatus)
		require.NotEmpty(t, sp.LastPayments)
	})

	t.Run("permissions and tenancy", func(t *testing.T) {
		op := s.NewUser(t, "operator")
		s.AddMember(t, op, admin.OrgID, "operator")
		sup := s.NewUser(t, "supervisor")
		s.AddMember(t, sup, admin.OrgID, "supervisor")
		res := sup.JSON(http.MethodGet, path, nil)
		require.Equal(t, http.StatusOK, res.Status)
		res = sup.JSON(http.MethodPost, path+"/pause", nil)
		require.Equal(t, http.StatusForbidden, res.Status)
		res = op.JSON(http.MethodPost, path+"/pause", map[string]string{"reason": "donor_request_stop_debit"})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res = op.JSON(http.MethodPost, path+"/restore", nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))

		other := s.NewOrgAdmin(t, "AR")
		// Each call carries a valid body (unknown body fields are refused before anything is read).
		reason, amount := map[string]any{"reason": "x"}, map[string]any{"amount": 10}
		for _, r := range []struct {
			method, path string
			body         any
		}{
			{http.MethodGet, path, nil}, {http.MethodPatch, path, amount}, {http.MethodPost, path + "/collect_payment", nil},
			{http.MethodPost, path + "/pause", reason}, {http.MethodPost, path + "/restore", nil}, {http.MethodPost, path + "/discard", reason},
			{http.MethodPatch, path + "/donor", nil}, {http.MethodPost, path + "/payment_method", nil}, {http.MethodGet, path + "/versions", nil},
			{http.MethodGet, path + "/support", nil}, {http.MethodPost, path + "/upgrades", nil},
			{http.MethodPatch, path + "/upgrades/" + uuid.NewString(), nil}, {http.MethodDelete, path + "/upgrades/" + uuid.NewString(), nil},
			{http.MethodPost, "/manage/api/donors/" + d.Donor.UUID + "/reactivate", nil}, {http.MethodPost, "/manage/api/donors/" + d.Donor.UUID + "/discard", reason},
		} {
			res := other.JSON(r.method, r.path, r.body)
			require.Equal(t, http.StatusNotFound, res.Status, "%s %s: %s", r.method, r.path, res.Body)
		}
	})

	t.Run("list csv summary", func(t *testing.T) {
		id2 := donate(t, s, slug, 0, 500, "zoe-"+uuid.NewString()[:8]+"@example.com")
		var l struct {
			Donations []struct {
				UUID   string `json:"uuid"`
				Status string `json:"status"`
				Amount struct {
					Minor int64 `json:"minor"`
				} `json:"amount"`
			} `json:"donations"`
			Total   int `json:"total"`
			Page    int `json:"page"`
			PerPage int `json:"per_page"`
		}
		res := admin.JSON(http.MethodGet, "/manage/api/donations?per_page=1&sort=-amount", nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res.Decode(t, &l)
		require.Equal(t, 2, l.Total)
		require.Len(t, l.Donations, 1)
		require.Equal(t, id, l.Donations[0].UUID)
		res = admin.JSON(http.MethodGet, "/manage/api/donations?per_page=1&page=2&sort=-amount", nil)
		res.Decode(t, &l)
		require.Equal(t, id2, l.Donations[0].UUID)
		res = admin.JSON(http.MethodGet, "/manage/api/donations?frequency=one_time&campaign="+campID, nil)
		res.Decode(t, &l)
		require.Equal(t, 1, l.Total)
		require.Equal(t, id2, l.Donations[0].UUID)
		res = admin.JSON(http.MethodGet, "/manage/api/donations?q=anit", nil)
		res.Decode(t, &l)
		require.Equal(t, 1, l.Total)
		require.Equal(t, id, l.Donations[0].UUID)
		res = admin.JSON(http.MethodGet, "/manage/api/donations?q=zoe-", nil)
		res.Decode(t, &l)
		require.Equal(t, 1, l.Total)
		res = admin.JSON(http.MethodGet, "/manage/api/donations?q=12345678&status=active&from="+time.Now().AddDate(0, 0, -1).Format("2006-01-02"), nil)
		res.Decode(t, &l)
		require.Equal(t, 2, l.Total)
		res = admin.JSON(http.MethodGet, "/manage/api/donations?sort=password", nil)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		res = admin.JSON(http.MethodGet, "/manage/api/donations?per_page=101", nil)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)

		// CSV: same filters, formula-safe.
		res = admin.JSON(http.MethodPatch, path+"/donor", map[string]any{"last_name": "=HYPERLINK(\"x\")"})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res = admin.Do(http.MethodGet, "/manage/api/donations.csv?frequency=monthly", nil, "")
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(res.Body, []byte("\xEF\xBB\xBF")))).ReadAll()
		require.NoError(t, err)
		require.Len(t, recs, 2)
		require.Equal(t, id, recs[1][0])
		require.True(t, strings.HasPrefix(recs[1][4], "'="), recs[1][4])

		// Transactions summary equals its rows.
		period := time.Now().In(mustLoc(t)).Format("2006-01")
		res = admin.JSON(http.MethodGet, "/manage/api/payment_transactions/summary/"+period, nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var sum struct {
			Currencies []struct {
				Currency string `json:"currency"`
				Approved struct {
					Count  int `json:"count"`
					Amount struct {
						Minor int64 `json:"minor"`
					} `json:"amount"`
				} `json:"approved"`
			} `json:"currencies"`
		}
		res.Decode(t, &sum)
		require.Len(t, sum.Currencies, 1)
		var rows struct {
			Transactions []struct {
				Status string `json:"status"`
				Amount struct {
					Minor int64 `json:"minor"`
				} `json:"amount"`
			} `json:"transactions"`
			Total int `json:"total"`
		}
		res = admin.JSON(http.MethodGet, "/manage/api/payment_transactions?period="+period+"&status=approved&per_page=100", nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res.Decode(t, &rows)
		var total int64
		for _, r := range rows.Transactions {
			require.Equal(t, "approved", r.Status)
			total += r.Amount.Minor
		}
		require.Equal(t, sum.Currencies[0].Approved.Count, rows.Total)
		require.Equal(t, sum.Currencies[0].Approved.Amount.Minor, total)
		var dbCount int
		var dbSum int64
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*), coalesce(sum(amount_minor),0) FROM transactions WHERE organization_id=$1 AND status='approved'", admin.OrgID).Scan(&dbCount, &dbSum))
		require.Equal(t, dbCount, rows.Total)
		require.Equal(t, dbSum, total)
		res = admin.JSON(http.MethodGet, "/manage/api/payment_transactions/summary/2026-13", nil)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	})

	t.Run("discard and donor reactivation", func(t *testing.T) {
		res := admin.JSON(http.MethodPost, path+"/discard", map[string]any{})
		require.Equal(t, http.StatusUnprocessableEntity, res.Status)
		p := apitest.OK[mdetail](t, admin, http.MethodPost, path+"/discard", map[string]any{"reason": "donor_request"})
		require.Equal(t, "discarded", p.Donation.Status)
		require.Equal(t, "donor_request", *p.Donation.DiscardReason)
		require.Equal(t, "discarded", stored())
		var nv int
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM donation_versions WHERE organization_id=$1 AND donation_id=$2 AND field='status' AND after->>'status'='discarded'", admin.OrgID, id).Scan(&nv))
		require.Equal(t, 1, nv)
		discardReason := map[string]any{"reason": "other"}
		for _, action := range []struct {
			m, p string
			body any
		}{{http.MethodPost, "/pause", discardReason}, {http.MethodPost, "/restore", nil}, {http.MethodPost, "/discard", discardReason},
			{http.MethodPatch, "", map[string]any{"amount": 100}}, {http.MethodPost, "/collect_payment", nil},
			{http.MethodPost, "/upgrades", map[string]any{"percentage": 5, "period": 1}}} {
			res = admin.JSON(action.m, path+action.p, action.body)
			require.Equal(t, http.StatusConflict, res.Status, "%s %s: %s", action.m, action.p, res.Body)
			require.Equal(t, "donation.discarded", res.ErrorCode())
		}
		donor := "/manage/api/donors/" + p.Donor.UUID
		res = admin.JSON(http.MethodPost, donor+"/reactivate", nil)
		require.Equal(t, http.StatusConflict, res.Status)
		res = admin.JSON(http.MethodPost, donor+"/discard", map[string]any{"reason": "deceased"})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		res = admin.JSON(http.MethodPost, donor+"/reactivate", nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var at *time.Time
		require.NoError(t, scope.QueryRow(ctx, "SELECT discarded_at FROM donors WHERE organization_id=$1 AND id=$2", admin.OrgID, p.Donor.UUID).Scan(&at))
		require.Nil(t, at)
	})
	_ = fmt.Sprint
}

func mustLoc(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("America/Argentina/Buenos_Aires")
	require.NoError(t, err)
	return loc
}
