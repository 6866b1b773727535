package bankaccounts_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/bankaccounts"
	"github.com/aporta/aporta/internal/reference"
)

// An Argentine CBU of Banco Macro (285) and of BBVA (017), both with valid check digits.
const (
	macroCBU = "2850590940090418135201"
	bbvaCBU  = "0170099220000067797370"
)

type fieldErrors struct {
	Error struct {
		Code   string            `json:"code"`
		Fields map[string]string `json:"fields"`
	} `json:"error"`
}

func form(bank, number string) map[string]any {
	return map[string]any{
		"bank_code": bank, "bank_name": "—", "account_number": number,
		"contact_first_name": "Ana", "contact_last_name": "Pérez", "contact_email": "Ana@Example.org", "contact_phone": "+54 11 5555-1234",
	}
}

func with(f map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range f {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func post(c *apitest.Client, body map[string]any, lang ...string) (apitest.Response, fieldErrors) {
	headers := []string{}
	if len(lang) > 0 {
		headers = []string{"Accept-Language", lang[0]}
	}
	res := c.JSON(http.MethodPost, "/manage/api/bank_accounts", body, headers...)
	var e fieldErrors
	_ = jsonDecode(res, &e)
	return res, e
}

func list(t *testing.T, c *apitest.Client) []bankaccounts.Account {
	t.Helper()
	return apitest.OK[bankaccounts.List](t, c, http.MethodGet, "/manage/api/bank_accounts", nil).BankAccounts
}

// TestArgentinaCBU: a wrong check digit or another bank's CBU is a field error in the reader's
// language and stores nothing; a valid one is stored sealed and answered masked, to its owner only.
func TestArgentinaCBU(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")

	// The form's data: Argentina's banks with their BCRA codes, no account types, no extra fields.
	country := apitest.OK[struct {
		BankParams reference.BankParams `json:"bank_params"`
	}](t, admin, http.MethodGet, "/manage/api/country", nil).BankParams
	require.GreaterOrEqual(t, len(country.Banks), 60)
	require.Empty(t, country.AccountTypes)
	require.Empty(t, country.RequiredFields)
	macro, ok := country.Bank("285")
	require.True(t, ok)
	require.Equal(t, "Banco Macro", macro.Label)

	wrong := macroCBU[:21] + "2"
	for lang, want := range map[string]string{
		"es": "dígito verificador", "en": "check digit", "pt": "dígito verificador",
	} {
		res, e := post(admin, form("285", wrong), lang)
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
		require.Equal(t, "validation_failed", e.Error.Code)
		require.Contains(t, e.Error.Fields["account_number"], want, lang)
	}
	res, e := post(admin, form("007", macroCBU), "en")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Contains(t, e.Error.Fields["account_number"], "different bank")
	res, e = post(admin, form("285", "12345"), "en")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Contains(t, e.Error.Fields["account_number"], "format")
	res, e = post(admin, form("999", macroCBU), "en")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Equal(t, "Choose a bank from the list.", e.Error.Fields["bank_code"])
	// Argentina asks no account type: one sent is refused rather than kept.
	res, e = post(admin, with(form("285", macroCBU), "account_type", "C"), "en")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Contains(t, e.Error.Fields, "account_type")
	require.Empty(t, list(t, admin), "nothing stored after refusals")

	// Every required field, each named.
	res, e = post(admin, map[string]any{}, "en")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	for _, f := range []string{"bank_code", "bank_name", "account_number", "contact_first_name", "contact_last_name", "contact_email", "contact_phone"} {
		require.Equal(t, "This field is required.", e.Error.Fields[f], f)
	}
	res, e = post(admin, with(form("285", macroCBU), "contact_email", "ana@", "contact_phone", "call me"), "en")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Equal(t, "The e-mail is not valid.", e.Error.Fields["contact_email"])
	require.Equal(t, "The phone number is not valid.", e.Error.Fields["contact_phone"])
	res, _ = post(admin, with(form("285", macroCBU), "surprise", true))
	require.Equal(t, http.StatusBadRequest, res.Status, "unknown fields are refused")

	// A valid CBU, typed with separators: stored, masked, the bank's label the reference one.
	res, _ = post(admin, with(form("285", " 2850590-940090418135201 "), "bank_address", "ignored"))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	require.NotContains(t, string(res.Body), macroCBU)
	require.NotContains(t, string(res.Body), "0418135201")
	var created bankaccounts.Account
	res.Decode(t, &created)
	require.Equal(t, "•••• 5201", created.AccountNumber)
	require.Equal(t, "Banco Macro", created.BankName)
	require.Equal(t, "ARS", created.Currency)
	require.Equal(t, "ana@example.org", created.ContactEmail)
	require.Nil(t, created.BankAddress, "Argentina does not ask for an address")
	require.True(t, created.Primary)

	// At rest the number is sealed: not in the row in any form.
	scope, err := s.Tenants.ForOrganization(context.Background(), admin.OrgID)
	require.NoError(t, err)
	var raw []byte
	var last4 string
	require.NoError(t, scope.QueryRow(context.Background(),
		`SELECT account_number, account_last4 FROM bank_accounts WHERE organization_id = $1`, admin.OrgID).Scan(&raw, &last4))
	require.NotContains(t, string(raw), "0418135201")
	require.Equal(t, "5201", last4)
	require.NotContains(t, s.Logs(), "0418135201", "the number is never logged")

	// Another organisation neither sees nor edits it.
	other := s.NewOrgAdmin(t, "AR")
	require.Empty(t, list(t, other))
	r := other.JSON(http.MethodPatch, "/manage/api/bank_accounts/"+created.UUID.String(), form("285", macroCBU))
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	r = admin.JSON(http.MethodPatch, "/manage/api/bank_accounts/not-a-uuid", form("285", macroCBU))
	require.Equal(t, http.StatusNotFound, r.Status)

	// An edit without a number keeps it, but it must still match the chosen bank.
	r = admin.JSON(http.MethodPatch, "/manage/api/bank_accounts/"+created.UUID.String(), with(form("285", ""), "contact_first_name", "Eva"))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var edited bankaccounts.Account
	r.Decode(t, &edited)
	require.Equal(t, "Eva", edited.ContactFirstName)
	require.Equal(t, "•••• 5201", edited.AccountNumber)
	r = admin.JSON(http.MethodPatch, "/manage/api/bank_accounts/"+created.UUID.String(), form("017", ""), "Accept-Language", "en")
	require.Equal(t, http.StatusUnprocessableEntity, r.Status)
	require.Contains(t, r.ErrorMessage(), "Check")
	r = admin.JSON(http.MethodPatch, "/manage/api/bank_accounts/"+created.UUID.String(), form("017", bbvaCBU))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r.Decode(t, &edited)
	require.Equal(t, "•••• 7370", edited.AccountNumber)
	require.Equal(t, "BBVA Argentina", edited.BankName)

	// A second account becomes the active one: first in the list, the other demoted.
	res, _ = post(admin, form("285", macroCBU))
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	accounts := list(t, admin)
	require.Len(t, accounts, 2)
	require.Equal(t, "•••• 5201", accounts[0].AccountNumber)
	require.True(t, accounts[0].Primary)
	require.False(t, accounts[1].Primary)
}

// TestCountryRules: each country's required fields, account types per country and per bank, and
// number rules (CLABE, CCI, formats).
func TestCountryRules(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	cases := []struct {
		country string
		ok      map[string]any
	}{
		{country: "MX", ok: form("032", "032180000118359719")},
		{country: "PE", ok: with(form("002", "00219100123456789053"), "account_type", "M")},
		{country: "BR", ok: with(form("341", "12345-6"), "account_type", "S", "bank_branch", "1234")},
		{country: "CL", ok: with(form("012", "12345678"), "account_type", "V")},
		{country: "CO", ok: with(form("1007", "12345678901"), "account_type", "C", "bank_address", "Cra 7 # 32-16", "bank_city", "Bogotá")},
		{country: "UY", ok: with(form("001", "001234567"), "account_type", "S")},
	}
	refusals := map[string][]struct {
		body  map[string]any
		field string
	}{
		"MX": {{form("032", "032180000118359718"), "account_number"}, {form("012", "032180000118359719"), "account_number"}},
		"PE": {{with(form("002", "00219100123456789050"), "account_type", "C"), "account_number"}, {form("002", "00219100123456789053"), "account_type"}},
		"BR": {{with(form("341", "12345-6"), "account_type", "S"), "bank_branch"}, {with(form("341", "12345-6"), "account_type", "S", "bank_branch", "12"), "bank_branch"}, {with(form("341", "12345-6"), "account_type", "V", "bank_branch", "1234"), "account_type"}},
		"CL": {{with(form("012", "12345678"), "account_type", "M"), "account_type"}},
		"CO": {{with(form("1007", "12345678901"), "account_type", "C", "bank_city", "Bogotá"), "bank_address"}, {with(form("1007", "12345678901"), "account_type", "C", "bank_address", "x"), "bank_city"}},
		// Uruguay asks a type only for the BROU (001).
		"UY": {{form("001", "001234567"), "account_type"}, {with(form("113", "1234567"), "account_type", "C"), "account_type"}},
	}
	for _, c := range cases {
		t.Run(c.country, func(t *testing.T) {
			admin := s.NewOrgAdmin(t, c.country)
			for _, r := range refusals[c.country] {
				res, e := post(admin, r.body)
				require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
				require.Contains(t, e.Error.Fields, r.field, string(res.Body))
			}
			require.Empty(t, list(t, admin))
			res, _ := post(admin, c.ok)
			require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
			if c.country == "UY" {
				res, _ = post(admin, form("113", "1234567"))
				require.Equal(t, http.StatusCreated, res.Status, "other Uruguayan banks take no type: %s", res.Body)
			}
		})
	}
}

func jsonDecode(r apitest.Response, v any) error { return json.Unmarshal(r.Body, v) }
