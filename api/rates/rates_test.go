package rates_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/rates"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
)

func publicNote(t *testing.T, s *apitest.Stack) rates.Note {
	t.Helper()
	res, err := s.Server.Client().Get(s.Server.URL + "/api/public/mep")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var n rates.Note
	require.NoError(t, json.NewDecoder(res.Body).Decode(&n))
	return n
}

// The note's rate comes from the provider (the sandbox's quote), cached with its source and day;
// staff override it for a day with a reason, which is kept with who set it; the note then uses
// the override. Bad input is refused in the reader's language and changes nothing; only staff may.
// Not parallel: the rate is the platform's, one for every test.
func TestMEPNoteAndStaffOverride(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	today := mep.Day(time.Now())

	n := publicNote(t, s)
	require.Equal(t, "ARS", n.MEP.Rate.Currency)
	require.Positive(t, n.MEP.Rate.Minor)
	require.False(t, n.MEP.Override)
	require.Equal(t, s.Config.MEPSource, n.MEP.Source)
	require.True(t, n.MEP.AsOf.Equal(today), "the provider's quote is today's: %s", n.MEP.AsOf)
	want, err := mep.Convert(money.New(149000, "USD"), n.MEP.Rate)
	require.NoError(t, err)
	require.Equal(t, want, n.Prices["professional_yearly"], "Professional yearly's USD 1490 at the rate")
	var cached int
	require.NoError(t, s.Tenants.Directory().QueryRow(ctx, `SELECT count(*) FROM exchange_rates WHERE staff_user_id IS NULL`).Scan(&cached))
	publicNote(t, s)
	var after int
	require.NoError(t, s.Tenants.Directory().QueryRow(ctx, `SELECT count(*) FROM exchange_rates WHERE staff_user_id IS NULL`).Scan(&after))
	require.Equal(t, cached, after, "a fresh quote is served from the cache")

	override := func(c *apitest.Client, body map[string]string, lang string) apitest.Response {
		return c.JSON(http.MethodPost, "/staff/api/mep", body, "Accept-Language", lang)
	}
	admin := s.NewOrgAdmin(t, "AR")
	res := override(admin, map[string]string{"rate": "1500", "as_of": today.Format(time.DateOnly), "reason": "me"}, "en")
	require.Equal(t, http.StatusForbidden, res.Status, "an organisation administrator is not staff")

	st := s.NewStaff(t)
	for _, bad := range []map[string]string{
		{"rate": "-1", "as_of": today.Format(time.DateOnly), "reason": "x"},
		{"rate": "0", "as_of": today.Format(time.DateOnly), "reason": "x"},
		{"rate": "1450.255", "as_of": today.Format(time.DateOnly), "reason": "x"},
		{"rate": "1450", "as_of": "24/11/2026", "reason": "x"},
		{"rate": "1450", "as_of": today.AddDate(0, 0, 2).Format(time.DateOnly), "reason": "x"},
		{"rate": "1450", "as_of": today.Format(time.DateOnly), "reason": "  "},
	} {
		res = override(st, bad, "pt")
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, "%v: %s", bad, res.Body)
	}
	res = override(st, map[string]string{"rate": "abc", "as_of": today.Format(time.DateOnly)}, "pt")
	require.Contains(t, string(res.Body), "Escreva o preço de um dólar")
	require.Contains(t, string(res.Body), "Escreva por que você altera a taxa")
	require.Equal(t, n, publicNote(t, s), "refused overrides changed nothing")

	res = override(st, map[string]string{"rate": "1510.40", "as_of": today.Format(time.DateOnly), "reason": "El proveedor publicó un valor viejo"}, "es")
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var h rates.History
	res.Decode(t, &h)
	require.Equal(t, money.New(151040, "ARS"), h.Current.Rate)
	require.True(t, h.Current.Override)
	require.Equal(t, mep.OverrideSource, h.Current.Source)
	require.Equal(t, st.Email, *h.Entries[0].StaffEmail)
	require.Equal(t, "El proveedor publicó un valor viejo", *h.Entries[0].Reason)

	// The override's audit: who, what, which day, why.
	var who, email, reason string
	var rate int64
	var day time.Time
	require.NoError(t, s.Tenants.Directory().QueryRow(ctx, `SELECT staff_user_id::text, staff_email, rate_minor, as_of, reason
		FROM exchange_rates WHERE staff_user_id IS NOT NULL ORDER BY id DESC LIMIT 1`).Scan(&who, &email, &rate, &day, &reason))
	require.Equal(t, st.UserID.String(), who)
	require.Equal(t, st.Email, email)
	require.EqualValues(t, 151040, rate)
	require.True(t, day.Equal(today))
	require.Equal(t, "El proveedor publicó un valor viejo", reason)

	n = publicNote(t, s)
	require.Equal(t, money.New(151040, "ARS"), n.MEP.Rate)
	require.True(t, n.MEP.Override)
	require.Equal(t, money.New(225049600, "ARS"), n.Prices["professional_yearly"], "1490 × 1510.40 = 2,250,496.00")

	// An override of an earlier day does not displace today's rate.
	res = override(st, map[string]string{"rate": "1200", "as_of": today.AddDate(0, 0, -3).Format(time.DateOnly), "reason": "Corrección"}, "es")
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.Equal(t, money.New(151040, "ARS"), publicNote(t, s).MEP.Rate)
}
