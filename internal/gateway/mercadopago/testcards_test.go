package mercadopago_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/mercadopago"
	"github.com/aporta/aporta/internal/money"
)

// publishedCard is a row of MercadoPago's test-card tables: "Tarjetas de prueba" on each country's
// developer site (mercadopago.com.ar/.com.br/.cl/.com.co/.com.mx/.com.pe/.com.uy developers/…/
// your-integrations/test/cards, source in github.com/mercadopago/devsite-docs), every card expiring
// 11/30. brand is the payment method MercadoPago names the card with, in Aporta's names.
type publishedCard struct {
	currency, kind, number string
	brand                  string
	cvv                    string
	docType, docNumber     string // the approving holder's document, per country
}

var publishedCards = []publishedCard{
	{"ARS", "credit", "5031 7557 3453 0604", "mastercard", "123", "DNI", "12345678"},
	{"ARS", "credit", "4509 9535 6623 3704", "visa", "123", "DNI", "12345678"},
	{"ARS", "credit", "3711 803032 57522", "amex", "1234", "DNI", "12345678"},
	{"ARS", "debit", "5287 3383 1025 3304", "debmaster", "123", "DNI", "12345678"},
	{"ARS", "debit", "4002 7686 9439 5619", "debvisa", "123", "DNI", "12345678"},
	{"BRL", "credit", "5031 4332 1540 6351", "mastercard", "123", "Otro", "12345678909"}, // CPF
	{"BRL", "credit", "4235 6477 2802 5682", "visa", "123", "Otro", "12345678909"},
	{"BRL", "credit", "3753 651535 56885", "amex", "1234", "Otro", "12345678909"},
	{"BRL", "debit", "5067 7667 8388 8311", "debelo", "123", "Otro", "12345678909"},
	{"CLP", "credit", "5416 7526 0258 2580", "mastercard", "123", "Otro", "123456789"},
	{"CLP", "credit", "4168 8188 4444 7115", "visa", "123", "Otro", "123456789"},
	{"CLP", "credit", "3757 781744 61804", "amex", "1234", "Otro", "123456789"},
	{"CLP", "debit", "5241 0198 2664 6950", "debmaster", "123", "Otro", "123456789"},
	{"CLP", "debit", "4023 6535 2391 4373", "debvisa", "123", "Otro", "123456789"},
	{"COP", "credit", "5254 1336 7440 3564", "mastercard", "123", "CC", "123456789"},
	{"COP", "credit", "4013 5406 8274 6260", "visa", "123", "CC", "123456789"},
	{"COP", "credit", "3743 781877 55283", "amex", "1234", "CC", "123456789"},
	{"COP", "debit", "4915 1120 5524 6507", "debvisa", "123", "CC", "123456789"},
	{"MXN", "credit", "5474 9254 3267 0366", "mastercard", "123", "Otro", "123456789"},
	{"MXN", "credit", "4075 5957 1648 3764", "visa", "123", "Otro", "123456789"},
	{"MXN", "credit", "3711 803032 57522", "amex", "1234", "Otro", "123456789"},
	{"MXN", "debit", "5579 0534 6148 2647", "debmaster", "123", "Otro", "123456789"},
	{"MXN", "debit", "4189 1412 2126 7633", "debvisa", "123", "Otro", "123456789"},
	{"PEN", "credit", "5031 7557 3453 0604", "mastercard", "123", "DNI", "123456789"},
	{"PEN", "credit", "4009 1753 3280 6176", "visa", "123", "DNI", "123456789"},
	{"PEN", "credit", "3711 803032 57522", "amex", "1234", "DNI", "123456789"},
	{"PEN", "debit", "5178 7816 2220 2455", "debmaster", "123", "DNI", "123456789"},
	{"UYU", "credit", "5031 7557 3453 0604", "mastercard", "123", "CI", "12345678"},
	{"UYU", "credit", "4509 9535 6623 3704", "visa", "123", "CI", "12345678"},
	{"UYU", "debit", "4213 0163 1470 6756", "debvisa", "123", "CI", "12345678"},
	// Earlier editions of the Uruguayan table.
	{"UYU", "credit", "5161 4413 1585 2061", "mastercard", "123", "CI", "12345678"},
	{"UYU", "credit", "4157 2362 1173 6486", "visa", "123", "CI", "12345678"},
}

// TestPublishedTestCards runs every published test card through the account's payment methods as
// the adapter reads them (brand, length, security code length, Luhn), the BIN search, the
// browser's tokenisation and a charge with the approving holder APRO.
func TestPublishedTestCards(t *testing.T) {
	t.Parallel()
	envs := map[string]*env{}
	for _, c := range publishedCards {
		if envs[c.currency] == nil {
			envs[c.currency] = newSiteEnv(t, "", c.currency, 0)
		}
	}
	ctx := context.Background()
	for i, c := range publishedCards {
		t.Run(c.currency+" "+c.kind+" "+c.brand+" "+c.number, func(t *testing.T) {
			e := envs[c.currency]
			number := strings.ReplaceAll(c.number, " ", "")
			methods, err := e.mp.PaymentMethods(ctx)
			require.NoError(t, err)
			rules := card.NewRules(methods)

			r, ok := rules.Detect(number)
			require.True(t, ok)
			require.Equal(t, c.brand, string(r.Brand))
			require.Equal(t, c.kind == "debit", r.PaymentType == "debit_card", r.PaymentType)
			require.True(t, r.ValidNumber(number), "length %d of %v, Luhn", len(number), r.Lengths)
			require.True(t, r.ValidCVV(c.cvv), "security code length %d", r.CVVLength)
			byBIN, ok := rules.Detect(number[:6])
			require.True(t, ok)
			require.Equal(t, r.Brand, byBIN.Brand, "the first six digits tell the brand")

			pm, err := e.mp.PaymentMethod(ctx, number[:8])
			require.NoError(t, err)
			require.Equal(t, c.brand, pm.ID, "BIN search")

			var tok struct {
				ID                 string `json:"id"`
				PaymentMethodID    string `json:"payment_method_id"`
				CardNumberLength   int    `json:"card_number_length"`
				SecurityCodeLength int    `json:"security_code_length"`
			}
			status := e.post("/v1/card_tokens", map[string]any{
				"card_number": number, "security_code": c.cvv, "expiration_month": 11, "expiration_year": 2030,
				"cardholder": map[string]any{"name": "APRO", "identification": map[string]string{"type": c.docType, "number": c.docNumber}},
			}, &tok)
			require.Equal(t, http.StatusCreated, status)
			require.Equal(t, len(number), tok.CardNumberLength)
			require.Equal(t, len(c.cvv), tok.SecurityCodeLength)
			require.Equal(t, strings.Replace(c.brand, "mastercard", "master", 1), tok.PaymentMethodID, "the token carries MercadoPago's brand")

			ref := fmt.Sprintf("published-%d", i)
			p, err := e.mp.Charge(ctx, gateway.Charge{IdempotencyKey: ref, ExternalReference: ref, Token: tok.ID,
				Amount: money.New(100*money.Unit(c.currency), c.currency), Email: "donor@example.org", PaymentMethodID: c.brand})
			require.NoError(t, err)
			require.Equal(t, gateway.StatusApproved, p.Status)
		})
	}
}

// TestPaymentMethodsRules checks the adapter's reading of GET /v1/payment_methods: card methods
// only, a brand listed once per length folded into one rule, Luhn from card_number.validation.
func TestPaymentMethodsRules(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t, "", "BRL", 0)
	methods, err := e.mp.PaymentMethods(context.Background())
	require.NoError(t, err)
	ids := make([]string, len(methods))
	for i, m := range methods {
		ids[i] = m.ID
		require.NotEmpty(t, m.BINPattern, m.ID)
		require.True(t, m.Luhn, m.ID)
	}
	require.Equal(t, []string{"visa", "mastercard", "amex", "elo", "debelo", "hipercard", "diners"}, ids)
	require.Equal(t, []int{13, 16, 19}, methods[5].Lengths)
	require.Equal(t, 4, methods[2].SecurityCodeLength)

	ar, err := newEnv(t, "", 0).mp.PaymentMethods(context.Background())
	require.NoError(t, err)
	naranja := ar[len(ar)-2]
	require.Equal(t, "naranja", naranja.ID)
	require.False(t, naranja.Luhn, "naranja numbers carry no check digit")
}

// An account's card methods are read once an hour, and a failure once a minute: public forms load at
// once (on their own table) while the gateway is down.
func TestPaymentMethodsAreCachedPerAccount(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	fail := atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if fail.Load() {
			http.Error(w, `{"message":"internal_error","status":500}`, http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(`[{"id":"master","name":"Mastercard","payment_type_id":"credit_card","status":"active",
			"settings":[{"bin":{"pattern":"^5","exclusion_pattern":null},"card_number":{"length":16,"validation":"standard"},"security_code":{"length":3}}]},
			{"id":"pagofacil","name":"Pago Fácil","payment_type_id":"ticket","status":"active","settings":[]},
			{"id":"visa","name":"Visa","payment_type_id":"credit_card","status":"deactive","settings":[]}]`))
	}))
	defer srv.Close()
	client := func(token string) *mercadopago.Client {
		c, err := mercadopago.New(mercadopago.Config{BaseURL: srv.URL, AccessToken: token, Currency: "ARS"})
		require.NoError(t, err)
		return c
	}
	ctx := context.Background()
	for range 3 { // clients built afresh for the same account share its answer
		ms, err := client("TEST-a").PaymentMethods(ctx)
		require.NoError(t, err)
		require.Equal(t, []gateway.CardMethod{{ID: "mastercard", Name: "Mastercard", PaymentType: "credit_card", BINPattern: "^5",
			Lengths: []int{16}, SecurityCodeLength: 3, Luhn: true}}, ms, "active card methods only")
	}
	require.Equal(t, int32(1), calls.Load())

	fail.Store(true)
	for range 3 {
		_, err := client("TEST-b").PaymentMethods(ctx)
		require.Error(t, err)
	}
	require.Equal(t, int32(2), calls.Load(), "another account asks for itself, and its failure is remembered")
}
