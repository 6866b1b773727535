package donation_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// TestConvertTokenIsSingleUseExpiringAndBoundToItsDonor: the convert-to-monthly token used to be a
// signature of the donation that never expired, came back on every receipt and replay, and could
// be used again and again. Now it is in the creating answer only, expires, converts once, and only
// the donation's own donor.
func TestConvertTokenIsSingleUseExpiringAndBoundToItsDonor(t *testing.T) {
	t.Parallel()
	f := setup(t, nil)
	ctx := context.Background()
	scope, err := f.tt.ForOrganization(ctx, f.org)
	require.NoError(t, err)
	give := func() (answer, map[string]any) {
		p := payload(token(t, f.cfg, "APRO"), 0, 1500, email(), uuid.NewString())
		a := post(t, f.srv.URL+"/d/"+f.slug, p)
		require.Equal(t, http.StatusCreated, a.Status, a.Body)
		return a, p
	}
	a, submitted := give()
	tok, _ := a.Body["convert_token"].(string)
	require.NotEmpty(t, tok)
	convert := func(id, tok string, body string) answer {
		return post(t, f.srv.URL+"/api/public/donations/"+id+"/convert?token="+tok, []byte(body))
	}
	getConvert := func(id, tok string) int {
		res, err := http.Get(f.srv.URL + "/api/public/donations/" + id + "/convert?token=" + tok)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}

	// Not echoed: the replay of the submission and the receipt carry no token.
	replay := post(t, f.srv.URL+"/d/"+f.slug, submitted)
	require.Equal(t, http.StatusOK, replay.Status, replay.Body)
	require.Equal(t, a.Donation, replay.Donation)
	require.NotContains(t, replay.Body, "convert_token")
	res, err := http.Get(f.srv.URL + "/api/public/campaigns/" + f.slug + "/receipts/" + a.Body["receipt"].(string))
	require.NoError(t, err)
	receipt, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, string(receipt))
	require.NotContains(t, string(receipt), "convert_token")
	require.NotContains(t, string(receipt), tok)

	// Bound to its donation: another donor's gift does not take it.
	other, _ := give()
	require.Equal(t, http.StatusNotFound, convert(other.Donation, tok, `{}`).Status)

	// Expired: refused, nothing changes.
	require.NoError(t, scope.Exec(ctx, `UPDATE donations SET convert_token_expires_at = now() - interval '1 second'
		WHERE organization_id = $1 AND id = $2`, f.org, a.Donation))
	require.Equal(t, http.StatusGone, getConvert(a.Donation, tok))
	expired := convert(a.Donation, tok, `{}`)
	require.Equal(t, http.StatusGone, expired.Status, expired.Body)
	require.Equal(t, "donation.convert_link_expired", expired.Code)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND recurrence = 0`, a.Donation))
	require.NoError(t, scope.Exec(ctx, `UPDATE donations SET convert_token_expires_at = now() + interval '1 day'
		WHERE organization_id = $1 AND id = $2`, f.org, a.Donation))

	// The conversion keeps the donation's donor: a donor in the request is not read.
	var donor uuid.UUID
	require.NoError(t, scope.QueryRow(ctx, `SELECT donor_id FROM donations WHERE organization_id = $1 AND id = $2`, f.org, a.Donation).Scan(&donor))
	intruder := "intruder-" + uuid.NewString()[:8] + "@example.org"
	c := convert(a.Donation, tok, `{"donor":{"email":"`+intruder+`","first_name":"Eve"},"donor_id":"`+uuid.NewString()+`"}`)
	require.Equal(t, http.StatusOK, c.Status, c.Body)
	require.EqualValues(t, 1, c.Body["recurrency"])
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND donor_id = $3 AND recurrence = 1`,
		a.Donation, donor))
	require.Zero(t, f.count(t, `SELECT count(*) FROM donors WHERE organization_id = $1 AND email = $2`, intruder))

	// Single use: the second conversion, and the form's reload, find no link.
	again := convert(a.Donation, tok, `{}`)
	require.Equal(t, http.StatusNotFound, again.Status, again.Body)
	require.Equal(t, "donation.convert_link_invalid", again.Code)
	require.Equal(t, http.StatusNotFound, getConvert(a.Donation, tok))

	// Bound to the donor it was issued for: a donation moved to another donor does not convert.
	moved, _ := give()
	movedTok := moved.Body["convert_token"].(string)
	var otherDonor uuid.UUID
	require.NoError(t, scope.QueryRow(ctx, `SELECT donor_id FROM donations WHERE organization_id = $1 AND id = $2`, f.org, other.Donation).Scan(&otherDonor))
	require.NoError(t, scope.Exec(ctx, `UPDATE donations SET donor_id = $3 WHERE organization_id = $1 AND id = $2`, f.org, moved.Donation, otherDonor))
	require.Equal(t, http.StatusNotFound, convert(moved.Donation, movedTok, `{}`).Status)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM donations WHERE organization_id = $1 AND id = $2 AND recurrence = 0`, moved.Donation))
}
