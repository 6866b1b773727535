package donation_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/pdfdoc/pdftest"
	"github.com/aporta/aporta/tenants"
)

var receiptLink = regexp.MustCompile(`/api/public/receipts/([A-Za-z0-9_\-]+)\?locale=([a-z]+)`)

// legalData gives the organisation the legal name, tax id and address its receipts carry.
func legalData(t *testing.T, s *apitest.Stack, orgID uuid.UUID) tenants.Scope {
	t.Helper()
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, orgID)
	require.NoError(t, err)
	require.NoError(t, scope.Exec(ctx, "UPDATE organizations SET uid_type = 'CUIT', uid = '30-71234567-1' WHERE organization_id = $1", orgID))
	require.NoError(t, scope.Exec(ctx, `INSERT INTO organization_profiles (organization_id, legal_name, address)
VALUES ($1, 'Fundación Recibos Claros', '{"street": "Av. Corrientes", "number": "1234", "city": "CABA"}')
ON CONFLICT (organization_id) DO UPDATE SET legal_name = EXCLUDED.legal_name, address = EXCLUDED.address`, orgID))
	return scope
}

// pdfText downloads a PDF and answers its text.
func pdfText(t *testing.T, c *apitest.Client, path string) string {
	t.Helper()
	res := c.Do(http.MethodGet, path, nil, "")
	require.Equal(t, http.StatusOK, res.Status, "%s: %s", path, res.Body)
	require.Equal(t, "application/pdf", res.Header.Get("Content-Type"))
	require.Contains(t, res.Header.Get("Content-Disposition"), "attachment")
	return pdftest.Text(t, res.Body)
}

// A one-time gift gets a receipt at once: the e-mail's signed link downloads it with the
// organisation's and the donor's legal data and the amount in figures and in words; the donor sees
// it in the portal, in their language, with the yearly summary; the organisation downloads both
// from the donation. Another donor's or another organisation's receipt is 404.
func TestReceiptPerApprovedChargeReachesDonorAndOrganisation(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, _ := manageFixture(t, s)
	legalData(t, s, admin.OrgID)
	ana := "ana-" + uuid.NewString()[:8] + "@example.com"
	beto := "beto-" + uuid.NewString()[:8] + "@example.com"
	anaGift := donate(t, s, slug, 0, 1000, ana)
	betoGift := donate(t, s, slug, 0, "1500.50", beto)

	// The receipt e-mail carries its signed download link.
	var ms []string
	require.Eventually(t, func() bool { ms = mails(t, s, ana, "donation_receipt"); return len(ms) == 1 }, 10*time.Second, 200*time.Millisecond)
	m := receiptLink.FindStringSubmatch(ms[0])
	require.NotNil(t, m, ms[0])
	text := pdfText(t, s.Visitor(t), "/api/public/receipts/"+m[1]+"?locale="+m[2])
	for _, want := range []string{"Recibo de donación N.º", "Fundación Recibos Claros", "CUIT 30-71234567-1", "Av. Corrientes 1234, CABA",
		"Ana Pérez", "DNI 12345678", "$ 1.000,00 ARS", "mil pesos", "Campaña gestión"} {
		require.Contains(t, text, want)
	}
	// A tampered link is not found, and tells nothing.
	res := s.Visitor(t).Do(http.MethodGet, "/api/public/receipts/"+m[1][:len(m[1])-2]+"AA", nil, "")
	require.Equal(t, http.StatusNotFound, res.Status)
	require.Equal(t, "receipt.not_found", res.ErrorCode())

	// The organisation sees the receipt number on the charge and downloads it, in its reader's language.
	var det struct {
		Transactions []struct {
			Status  string `json:"status"`
			Receipt *int64 `json:"receipt"`
		} `json:"transactions"`
	}
	res = admin.JSON(http.MethodGet, "/manage/api/donations/"+betoGift, nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &det)
	require.Len(t, det.Transactions, 1)
	require.NotNil(t, det.Transactions[0].Receipt)
	betoNumber := *det.Transactions[0].Receipt
	text = pdfText(t, admin, fmt.Sprintf("/manage/api/donations/%s/receipts/%d?locale=en", betoGift, betoNumber))
	require.Contains(t, text, "Donation receipt No.")
	require.Contains(t, text, "one thousand five hundred pesos and fifty cents")
	year := time.Now().Year()
	text = pdfText(t, admin, fmt.Sprintf("/manage/api/donations/%s/summaries/%d?locale=pt", betoGift, year))
	require.Contains(t, text, fmt.Sprintf("Resumo anual de doações %d", year))
	require.Contains(t, text, "mil e quinhentos pesos e cinquenta centavos")

	// Numbers belong to one donor: Ana's donation does not reach Beto's receipt.
	res = admin.Do(http.MethodGet, fmt.Sprintf("/manage/api/donations/%s/receipts/%d", anaGift, betoNumber), nil, "")
	require.Equal(t, http.StatusNotFound, res.Status)
	// Another organisation's administrator gets 404 for the donation, its receipt and summary.
	other := s.NewOrgAdmin(t, "AR")
	for _, p := range []string{fmt.Sprintf("/manage/api/donations/%s/receipts/%d", betoGift, betoNumber),
		fmt.Sprintf("/manage/api/donations/%s/summaries/%d", betoGift, year)} {
		require.Equal(t, http.StatusNotFound, other.Do(http.MethodGet, p, nil, "").Status, p)
	}
	res = admin.Do(http.MethodGet, fmt.Sprintf("/manage/api/donations/%s/summaries/1999", betoGift), nil, "")
	require.Equal(t, "receipt.year_invalid", res.ErrorCode())
	res = admin.Do(http.MethodGet, fmt.Sprintf("/manage/api/donations/%s/summaries/%d", betoGift, year-1), nil, "")
	require.Equal(t, "receipt.year_empty", res.ErrorCode())

	// The donor: the portal lists the charge's receipt and downloads it and the year's summary.
	p := openPortal(t, s, slug, ana)
	var list struct {
		Donations []struct {
			Charges []struct {
				Receipt *int64 `json:"receipt"`
			} `json:"charges"`
		} `json:"donations"`
	}
	res = p.JSON(http.MethodGet, "/api/public/portal/donations", nil)
	res.Decode(t, &list)
	require.Len(t, list.Donations, 1)
	anaNumber := list.Donations[0].Charges[0].Receipt
	require.NotNil(t, anaNumber)
	text = pdfText(t, p, fmt.Sprintf("/api/public/portal/receipts/%d", *anaNumber))
	require.Contains(t, text, "Ana Pérez")
	require.Contains(t, text, fmt.Sprintf("%08d", *anaNumber))
	text = pdfText(t, p, fmt.Sprintf("/api/public/portal/summaries/%d", year))
	require.Contains(t, text, "Total del año")
	require.Contains(t, text, "$ 1.000,00 ARS")
	require.NotContains(t, text, "1.500,50", "only the donor's own charges")
	// Beto's receipt is not Ana's: 404, like a number that does not exist.
	for _, n := range []string{fmt.Sprint(betoNumber), "999999", "abc"} {
		res = p.Do(http.MethodGet, "/api/public/portal/receipts/"+n, nil, "")
		require.Equal(t, http.StatusNotFound, res.Status, n)
	}
}

// Concurrent approvals across donations take receipt numbers 1…n of the organisation: no gap, no
// number twice. A charge recorded again keeps its number, and a refusal takes none.
func TestReceiptNumbersHaveNoGapsUnderConcurrency(t *testing.T) {
	s := apitest.Start(t)
	admin, slug, _ := manageFixture(t, s)
	scope := legalData(t, s, admin.OrgID)
	ctx := context.Background()
	var donations []uuid.UUID
	for i := range 4 {
		id := donate(t, s, slug, 1, 1000, fmt.Sprintf("conc-%d-%s@example.com", i, uuid.NewString()[:8]))
		donations = append(donations, uuid.MustParse(id))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	record := func(t charge.Transaction, st gateway.Status) {
		defer wg.Done()
		errs <- charge.Record(ctx, scope, t, charge.Outcome{Status: st, PaymentID: "p-" + t.ID.String()[:8], At: time.Now()})
	}
	approved := 0
	for _, d := range donations {
		for m := 1; m <= 5; m++ {
			tx := charge.Transaction{OrgID: admin.OrgID, ID: uuid.New(), DonationID: d, Period: fmt.Sprintf("2031-%02d", m),
				Attempt: 1, Amount: 1000, Currency: "ARS"}
			wg.Add(2)
			go record(tx, gateway.StatusApproved)
			go record(tx, gateway.StatusApproved) // the same approval recorded twice at once
			approved++
		}
		wg.Add(1)
		go record(charge.Transaction{OrgID: admin.OrgID, ID: uuid.New(), DonationID: d, Period: "2031-06", Attempt: 1,
			Amount: 1000, Currency: "ARS"}, gateway.StatusRejected)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	rows, err := scope.Query(ctx, "SELECT number FROM receipts WHERE organization_id = $1 ORDER BY number", admin.OrgID)
	require.NoError(t, err)
	var numbers []int64
	for rows.Next() {
		var n int64
		require.NoError(t, rows.Scan(&n))
		numbers = append(numbers, n)
	}
	require.NoError(t, rows.Err())
	want := len(donations) + approved // each first charge, then every approved period once
	require.Len(t, numbers, want)
	for i, n := range numbers {
		require.Equal(t, int64(i+1), n, "numbers 1…%d without a gap: %v", want, numbers)
	}
	var approvedTx int
	require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM transactions WHERE organization_id = $1 AND status = 'approved'", admin.OrgID).Scan(&approvedTx))
	require.Equal(t, want, approvedTx, "one receipt per approved charge")
	var last int64
	require.NoError(t, scope.QueryRow(ctx, "SELECT last_number FROM receipt_counters WHERE organization_id = $1", admin.OrgID).Scan(&last))
	require.Equal(t, int64(want), last)
}

// Signing out of the portal ends the session on the server: the cookie it had is refused from then
// on, even where a copy of it survived.
func TestPortalSignOutRevokesTheSession(t *testing.T) {
	s := apitest.Start(t)
	_, slug, _ := manageFixture(t, s)
	ana := "ana-" + uuid.NewString()[:8] + "@example.com"
	donate(t, s, slug, 0, 1000, ana)
	v := s.Visitor(t)
	res := v.JSON(http.MethodPost, "/api/public/portal/links", map[string]any{"slug": slug, "email": ana})
	require.Equal(t, http.StatusAccepted, res.Status, string(res.Body))
	res = v.JSON(http.MethodPost, "/api/public/portal/session", map[string]any{"token": linkToken(t, s, ana, "donor_portal_link")})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var cookie string
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == "aporta_donor" {
			cookie = c.Name + "=" + c.Value
		}
	}
	require.NotEmpty(t, cookie)
	withCopy := func() int { // a GET needs no CSRF token: only the copied cookie speaks
		req, err := http.NewRequest(http.MethodGet, s.Server.URL+"/api/public/portal/donations", nil)
		require.NoError(t, err)
		req.Header.Set("Cookie", cookie)
		r, err := apitest.HTTPClient(apitest.NewIP()).Do(req)
		require.NoError(t, err)
		r.Body.Close()
		return r.StatusCode
	}
	require.Equal(t, http.StatusOK, withCopy())

	res = v.JSON(http.MethodDelete, "/api/public/portal/session", nil)
	require.Equal(t, http.StatusNoContent, res.Status, string(res.Body))
	require.Contains(t, res.Header.Get("Set-Cookie"), "Max-Age=0")
	require.Equal(t, http.StatusUnauthorized, withCopy(), "a revoked session is refused before its hour ends")
	res = v.JSON(http.MethodGet, "/api/public/portal/donations", nil)
	require.Equal(t, "portal.session_expired", res.ErrorCode())
	// A forged session value is refused the same way.
	cookie = "aporta_donor=" + url.QueryEscape(strings.Repeat("A", 86))
	require.Equal(t, http.StatusUnauthorized, withCopy())
}
