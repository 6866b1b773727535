package donation_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/portal"
)

var portalToken = regexp.MustCompile(`/donor/[^/?\s]+\?token=([A-Za-z0-9_%\-]+)`)

// mails is the bodies of the outbox's e-mails of a kind to a recipient, oldest first.
func mails(t *testing.T, s *apitest.Stack, to, kind string) []string {
	t.Helper()
	rows, err := s.Tenants.Directory().Query(context.Background(),
		"SELECT body FROM outbox_messages WHERE recipient = $1 AND template_type = $2 ORDER BY id", to, kind)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var b string
		require.NoError(t, rows.Scan(&b))
		out = append(out, b)
	}
	return out
}

// linkToken is the token of the newest portal link e-mailed to the donor.
func linkToken(t *testing.T, s *apitest.Stack, to, kind string) string {
	t.Helper()
	ms := mails(t, s, to, kind)
	require.NotEmpty(t, ms, "a %s e-mail to %s", kind, to)
	m := portalToken.FindStringSubmatch(ms[len(ms)-1])
	require.NotNil(t, m, ms[len(ms)-1])
	tok, err := url.QueryUnescape(m[1])
	require.NoError(t, err)
	return tok
}

// portalDonation is the part of the portal's donation the tests read.
type portalDonation struct {
	UUID     string   `json:"uuid"`
	Status   string   `json:"status"`
	ResumeOn string   `json:"resume_on"`
	Actions  []string `json:"actions"`
	Amount   struct {
		Minor int64 `json:"minor"`
	} `json:"amount"`
	Charges []struct {
		Status  string `json:"status"`
		Decline string `json:"decline"`
	} `json:"charges"`
}

// openPortal asks for a link as the donor and opens the session it e-mails.
func openPortal(t *testing.T, s *apitest.Stack, slug, email string) *apitest.Client {
	t.Helper()
	v := s.Visitor(t)
	res := v.JSON(http.MethodPost, "/api/public/portal/links", map[string]any{"slug": slug, "email": email})
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))
	res = v.JSON(http.MethodPost, "/api/public/portal/session", map[string]any{"token": linkToken(t, s, email, "donor_portal_link")})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	return v
}

func TestPortalLinkIsSingleUseExpiresAndTellsNothing(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, _ := manageFixture(t, s)
	known := "ana-" + uuid.NewString()[:8] + "@example.com"
	id := donate(t, s, slug, 1, 1000, known)

	// The same answer whether or not the address is a donor's; only the donor gets an e-mail.
	v := s.Visitor(t)
	unknown := "nadie-" + uuid.NewString()[:8] + "@example.com"
	a := v.JSON(http.MethodPost, "/api/public/portal/links", map[string]any{"slug": slug, "email": known})
	b := v.JSON(http.MethodPost, "/api/public/portal/links", map[string]any{"slug": slug, "email": unknown})
	require.Equal(t, http.StatusAccepted, a.Status, string(a.Body))
	require.Equal(t, a.Status, b.Status)
	require.JSONEq(t, string(a.Body), string(b.Body))
	require.Empty(t, mails(t, s, unknown, "donor_portal_link"))
	require.Len(t, mails(t, s, known, "donor_portal_link"), 1)
	// A bad address is a validation error, for both alike.
	require.Equal(t, http.StatusUnprocessableEntity, v.JSON(http.MethodPost, "/api/public/portal/links", map[string]any{"slug": slug, "email": "no"}).Status)

	// The link opens one session: a second use, a tampered link and an expired one are refused alike.
	tok := linkToken(t, s, known, "donor_portal_link")
	first := s.Visitor(t)
	res := first.JSON(http.MethodPost, "/api/public/portal/session", map[string]any{"token": tok})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	require.Contains(t, res.Header.Get("Set-Cookie"), "HttpOnly")
	require.Contains(t, res.Header.Get("Set-Cookie"), "SameSite=Strict")
	require.Contains(t, res.Header.Get("Set-Cookie"), "Path=/api/public/portal")
	again := s.Visitor(t)
	res = again.JSON(http.MethodPost, "/api/public/portal/session", map[string]any{"token": tok})
	require.Equal(t, http.StatusUnauthorized, res.Status)
	require.Equal(t, "portal.link_invalid", res.ErrorCode())
	res = again.JSON(http.MethodPost, "/api/public/portal/session", map[string]any{"token": tok[:len(tok)-2] + "AA"})
	require.Equal(t, "portal.link_invalid", res.ErrorCode())
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	var donorID uuid.UUID
	require.NoError(t, scope.QueryRow(context.Background(), "SELECT id FROM donors WHERE organization_id = $1 AND email = $2", admin.OrgID, known).Scan(&donorID))
	old := portal.Keys{Secret: s.Config.Secret, Now: func() time.Time { return time.Now().Add(-portal.AccessTTL - time.Minute) }}
	expired, err := old.Issue(context.Background(), scope.Store(), admin.OrgID, donorID, portal.PurposeAccess, portal.AccessTTL)
	require.NoError(t, err)
	res = again.JSON(http.MethodPost, "/api/public/portal/session", map[string]any{"token": expired})
	require.Equal(t, "portal.link_invalid", res.ErrorCode())
	res = again.JSON(http.MethodGet, "/api/public/portal/donations", nil)
	require.Equal(t, http.StatusUnauthorized, res.Status, "no session, no donations")

	// The session sees its donor's donations only.
	var list struct{ Donations []portalDonation }
	res = first.JSON(http.MethodGet, "/api/public/portal/donations", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &list)
	require.Len(t, list.Donations, 1)
	require.Equal(t, id, list.Donations[0].UUID)

	// Per address, a few links per quarter hour: known or not, the fourth is refused the same way.
	for _, e := range []string{known, unknown} {
		codes := []int{}
		for range 3 {
			codes = append(codes, s.Visitor(t).JSON(http.MethodPost, "/api/public/portal/links", map[string]any{"slug": slug, "email": e}).Status)
		}
		require.Equal(t, http.StatusTooManyRequests, codes[len(codes)-1], "%s: %v", e, codes)
	}
}

func TestPortalChangesGoThroughTheWorkflowAsTheDonor(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, _ := manageFixture(t, s)
	ana := "ana-" + uuid.NewString()[:8] + "@example.com"
	mine := donate(t, s, slug, 1, 1000, ana)
	other := donate(t, s, slug, 1, 1000, "otro-"+uuid.NewString()[:8]+"@example.com")
	p := openPortal(t, s, slug, ana)

	// Another donor's donation is not found, and nothing changes.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "", nil}, {http.MethodPatch, "", map[string]any{"amount": "2000"}},
		{http.MethodPost, "/pause", map[string]any{"months": 2}}, {http.MethodPost, "/cancel", map[string]any{"reason": "other"}},
		{http.MethodPost, "/resume", nil},
	} {
		res := p.JSON(c.method, "/api/public/portal/donations/"+other+c.path, c.body)
		require.Equal(t, http.StatusNotFound, res.Status, "%s %s: %s", c.method, c.path, res.Body)
	}
	var st string
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	require.NoError(t, scope.QueryRow(context.Background(), "SELECT status || amount_minor FROM donations WHERE organization_id = $1 AND id = $2", admin.OrgID, other).Scan(&st))
	require.Equal(t, "active100000", st)

	// The amount within the campaign's limits; outside them it is refused.
	res := p.JSON(http.MethodPatch, "/api/public/portal/donations/"+mine, map[string]any{"amount": "1"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	var d portalDonation
	res = p.JSON(http.MethodPatch, "/api/public/portal/donations/"+mine, map[string]any{"amount": "1500", "collect_day": 15})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)
	require.Equal(t, int64(150000), d.Amount.Minor)

	// A pause of 4 months is refused; 2 months pauses and says when it resumes.
	require.Equal(t, http.StatusUnprocessableEntity, p.JSON(http.MethodPost, "/api/public/portal/donations/"+mine+"/pause", map[string]any{"months": 4}).Status)
	res = p.JSON(http.MethodPost, "/api/public/portal/donations/"+mine+"/pause", map[string]any{"months": 2})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)
	require.Equal(t, "paused", d.Status)
	require.NotEmpty(t, d.ResumeOn)
	require.Contains(t, d.Actions, "resume")

	// The version history says "by the donor", and each change was confirmed by e-mail.
	var versions struct {
		Versions []struct {
			ActorType string `json:"actor_type"`
			Field     string `json:"field"`
		} `json:"versions"`
	}
	res = admin.JSON(http.MethodGet, "/manage/api/donations/"+mine+"/versions", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &versions)
	fields := map[string]bool{}
	for _, v := range versions.Versions {
		if v.ActorType == "donor" {
			fields[v.Field] = true
		}
	}
	require.Equal(t, map[string]bool{"amount": true, "collect_day": true, "status": true}, fields)
	require.Len(t, mails(t, s, ana, "donor_portal_change"), 2)

	// Cancelling takes a reason from the list.
	require.Equal(t, http.StatusUnprocessableEntity, p.JSON(http.MethodPost, "/api/public/portal/donations/"+mine+"/cancel", map[string]any{"reason": "<b>x</b>"}).Status)
	res = p.JSON(http.MethodPost, "/api/public/portal/donations/"+mine+"/cancel", map[string]any{"reason": "financial_reasons"})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)
	require.Equal(t, "discarded", d.Status)
	require.Empty(t, d.Actions)
}

// A monthly charge declined for insufficient funds e-mails the donor a link; their new card,
// given in the portal, charges the period at once, once.
func TestDeclinedChargeRecoversWithTheDonorsNewCard(t *testing.T) {
	s := apitest.Start(t)
	ctx := context.Background()
	admin, scope := enabledAdmin(t, s)
	cp := apitest.PublishedCampaign(t, s.Tenants, admin.OrgID, campaign.Input{Title: "Campaña recupero", Type: "fundraise", Channel: "public",
		AllowOtherAmount: true, Amounts: []campaign.Amount{{Amount: "1000"}}})

	ana := "ana-" + uuid.NewString()[:8] + "@example.com"
	a := post(t, s.Server.URL+"/d/"+cp.Slug, payload(token(t, s.Config, "FUND"), 1, 1000, ana, uuid.NewString()))
	require.Equal(t, http.StatusCreated, a.Status, a.Message)
	// The worker charges the first period: declined, the donor is e-mailed a link.
	require.Eventually(t, func() bool { return len(mails(t, s, ana, "donation_card_declined")) == 1 }, 60*time.Second, 300*time.Millisecond)
	require.Contains(t, mails(t, s, ana, "donation_card_declined")[0], "fondos insuficientes")

	p := s.Visitor(t)
	res := p.JSON(http.MethodPost, "/api/public/portal/session", map[string]any{"token": linkToken(t, s, ana, "donation_card_declined")})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var d portalDonation
	res = p.JSON(http.MethodGet, "/api/public/portal/donations/"+a.Donation, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &d)
	require.Contains(t, d.Actions, "change_card")
	declines := []string{}
	for _, c := range d.Charges {
		if c.Status == "rejected" {
			declines = append(declines, c.Decline)
		}
	}
	require.Equal(t, []string{"fondos insuficientes"}, declines)

	// Another card (the sandbox, as MercadoPago, answers the saved card again for the same number and expiry).
	card := payload(tokenFor(t, s.Config, "5031755734530604", "APRO"), 1, 1000, ana, "")["payment_method"].(map[string]any)
	card["method_id"], card["bin"], card["last_four"] = "mastercard", "503175", "0604"
	res = p.JSON(http.MethodPost, "/api/public/portal/donations/"+a.Donation+"/payment_method", card)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	approved := func() int {
		var n int
		require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND donation_id = $2 AND status = 'approved'",
			admin.OrgID, a.Donation).Scan(&n))
		return n
	}
	require.Eventually(t, func() bool { return approved() == 1 }, 30*time.Second, 300*time.Millisecond, "the period is charged at once")
	time.Sleep(2 * time.Second)
	require.Equal(t, 1, approved(), "and once")

	// The dashboard counts it as recovered.
	var dash struct {
		Recovered int64 `json:"recovered"`
	}
	res = admin.JSON(http.MethodGet, "/manage/api/dashboard", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &dash)
	require.Equal(t, int64(1), dash.Recovered)
}
