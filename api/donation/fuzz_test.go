package donation

import (
	"bytes"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/card/cardtest"
)

// fuzzForm is a published ARS campaign taking one-time and other amounts, with one extra field of
// every type.
func fuzzForm() campaign.Form {
	cp := &campaign.Campaign{Currency: "ARS", Country: "AR", Input: campaign.Input{Title: "Comedor", Type: "fundraise",
		AllowOneTime: true, AllowOtherAmount: true, Instalments: 6, FormFields: []campaign.FormField{
			{Type: "occupation", Title: "Ocupación"}, {Type: "alt_email"}, {Type: "birthday"}, {Type: "cellphone", ValueRelatedTo: "donor.phone"},
			{Type: "select_options", Options: []string{"a", "b"}}, {Type: "checkbox"}, {Type: "textarea"}, {Type: "gender", ValueRelatedTo: "donor.gender"},
			{Type: "textfield", ValueRelatedTo: "donor.phone"},
		}}}
	return campaign.Form{Campaign: cp, Org: campaign.Org{Country: "AR", Timezone: "America/Argentina/Buenos_Aires", Status: "enabled", AcceptingDonations: true}}
}

// submit runs a public form body the way POST /d/:slug does before it touches the database: the
// card guard on the raw body, the JSON decoder, then check. It answers the submission when all
// three accept it.
func submit(body []byte, f campaign.Form, now time.Time) (Submission, bool) {
	if card.ContainsCardData(body) {
		return Submission{}, false
	}
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest(http.MethodPost, "/d/fuzz", bytes.NewReader(body))
	c.Request.Header.Set("Content-Type", "application/json")
	var req Request
	if request.JSON(c, &req) != nil {
		return Submission{}, false
	}
	limits := campaign.DefaultLimits(f.Campaign.Currency)
	sub, err := check(req, f, limits, func(bool) int64 { return limits.Min }, now)
	return sub, err == nil
}

// panFields plant a value in a field where a donor types free text or a document number.
var panFields = []func(r *Request, v string){
	func(r *Request, v string) { r.Donor.FirstName = v },
	func(r *Request, v string) { r.Donor.LastName = v },
	func(r *Request, v string) { r.PaymentMethod.CardholderName = v },
	func(r *Request, v string) {
		if len(r.Donation.Items) > 0 {
			r.Donation.Items[0].ItemName = v
		}
	},
	func(r *Request, v string) { r.FormFields = append(r.FormFields, FieldValue{Order: 0, Value: v}) },
	func(r *Request, v string) { r.FormFields = append(r.FormFields, FieldValue{Order: 6, Value: v}) },
	func(r *Request, v string) { r.Donor.UIDNumber = v },
	func(r *Request, v string) { r.PaymentMethod.CardholderIDNumber = v },
}

// FuzzCheck sends any body through the public form's decoding and validation. What it accepts is a
// coherent submission: the total is the exact sum of its items (no overflow) within the campaign's
// limits, each stored field has the shape and length the spec gives it, and no free-text or
// document field holds a card number. A card number made from the fuzzed digits is then also
// planted in one such field of the decoded body: the form must refuse it (issue #11 item 5).
func FuzzCheck(f *testing.F) {
	f.Add(fuzzValid, "450995356623370", uint8(0))
	f.Add(fuzzBody(`{"items":[{"amount":1000,"quantity":3},{"amount":"2000"}],"periodic_increase":true,"instalments":3}`,
		`{"first_name":"Ana","last_name":"Pérez","email":"ANA@Example.org "}`, `[]`), "555555555555444", uint8(1))
	f.Add(fuzzBody(`{"items":[{"amount":"15.001"}]}`, `{"first_name":"","email":"no-es-correo"}`, `[{"order":99,"value":"x"}]`),
		"636297000045701", uint8(2))
	f.Add([]byte(`{"donation":{"items":[{"amount":"1e3"}]},"idempotency_key":"short"}`), "606282562425400", uint8(3))
	f.Add([]byte(`{"payment_method":{"card_number":"4111111111111111"}}`), "222300312200322", uint8(4))
	f.Add([]byte(`{"donation":`), "601111111111111", uint8(5))
	gin.SetMode(gin.TestMode)
	now, form := fuzzNow, fuzzForm()
	f.Fuzz(func(t *testing.T, body []byte, panSeed string, field uint8) {
		if sub, ok := submit(body, form, now); ok {
			checkAccepted(t, body, sub, form, now)
		}
		pan := cardtest.PAN(panSeed)
		var req Request
		if pan == "" || json.Unmarshal(body, &req) != nil {
			return
		}
		panFields[int(field)%len(panFields)](&req, pan)
		planted, err := json.Marshal(req)
		if err != nil {
			return // a json.Number the decoder let through that cannot be written back
		}
		if sub, ok := submit(planted, form, now); ok {
			checkAccepted(t, planted, sub, form, now)
		}
	})
}

var (
	fuzzNow   = time.Date(2026, time.November, 22, 15, 4, 5, 0, time.FixedZone("ART", -3*3600))
	fuzzValid = fuzzBody(`{"recurrency":0,"items":[{"uuid":"","amount":"1500.50","item_name":"Donación","quantity":1}]}`,
		`{"first_name":"Ana","last_name":"Pérez","email":"ana@example.org","uid_type":"DNI","uid_number":"30.123.456"}`,
		`[{"order":0,"value":"Docente"},{"order":3,"value":"+54 9 11 4444-5555"},{"order":7,"value":"female"}]`)
)

// The fuzz target's invariants only bite on accepted bodies: its first seed must be one.
func TestFuzzCheckSeedIsAccepted(t *testing.T) {
	gin.SetMode(gin.TestMode)
	sub, ok := submit(fuzzValid, fuzzForm(), fuzzNow)
	if !ok || sub.Amount != 150050 || len(sub.FormValues) != 3 {
		t.Fatalf("the valid seed is refused or changed: %v %+v", ok, sub)
	}
}

// fuzzBody is a complete public form body around the given donation, donor and form_fields.
func fuzzBody(donation, donor, fields string) []byte {
	return []byte(`{"donation":` + donation + `,"donor":` + donor + `,"form_fields":` + fields + `,
		"payment_method":{"gateway":{"name":"mercadopago","token":"ff8080814c11e237014c1ff593b57b4d","device_id":"abc"},
		"method_id":"visa","bin":"450995","last_four":"3704","cc_expiration":"11 / 30","cardholder_name":"APRO",
		"cardholder_id_type":"DNI","cardholder_id_number":"30.123.456"},"idempotency_key":"fuzz-0123456789abcdef"}`)
}

func checkAccepted(t *testing.T, body []byte, sub Submission, f campaign.Form, now time.Time) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("accepted %s\n"+format, append([]any{body}, args...)...)
	}
	limits := campaign.DefaultLimits(f.Campaign.Currency)
	sum := new(big.Int)
	for _, it := range sub.Items {
		if it.Amount <= 0 || it.Quantity < 1 || it.Quantity > 100 || utf8.RuneCountInString(it.ItemName) > 120 {
			fail("item %+v", it)
		}
		sum.Add(sum, new(big.Int).Mul(big.NewInt(it.Amount), big.NewInt(int64(it.Quantity))))
	}
	if len(sub.Items) == 0 || !sum.IsInt64() || sum.Int64() != sub.Amount {
		fail("total %d is not the sum of its items, %s", sub.Amount, sum)
	}
	if sub.Amount < limits.Min || sub.Amount > limits.Max {
		fail("total %d outside [%d, %d]", sub.Amount, limits.Min, limits.Max)
	}
	if sub.Recurrency != 0 && sub.Recurrency != 1 {
		fail("recurrency %d", sub.Recurrency)
	}
	d := sub.Donor
	if d.FirstName == "" || d.LastName == "" || utf8.RuneCountInString(d.FirstName) > 100 || utf8.RuneCountInString(d.LastName) > 100 {
		fail("donor name %q %q", d.FirstName, d.LastName)
	}
	if email, ok := campaign.NormalizeEmail(d.Email); !ok || email != d.Email {
		fail("donor e-mail %q", d.Email)
	}
	if !keyRe.MatchString(sub.IdempotencyKey) {
		fail("idempotency key %q", sub.IdempotencyKey)
	}
	c := sub.Card
	if strings.TrimSpace(c.Token) == "" || !binRe.MatchString(c.BIN) || !lastRe.MatchString(c.LastFour) ||
		c.ExpMonth < 1 || c.ExpMonth > 12 || c.ExpYear*12+c.ExpMonth < now.Year()*12+int(now.Month()) {
		fail("card %+v", c)
	}
	for _, doc := range []string{c.HolderIDNumber, d.UIDNumber} {
		if doc != "" && (len(doc) < 3 || len(doc) > 20 || nonDigit.MatchString(doc)) {
			fail("document %q", doc)
		}
	}
	seen := map[int]bool{}
	free := []string{d.FirstName, d.LastName, d.UIDNumber, c.HolderName, c.HolderIDNumber}
	for _, v := range sub.FormValues {
		if v.Order < 0 || v.Order >= len(f.Campaign.FormFields) || seen[v.Order] || v.Value == "" {
			fail("form value %+v", v)
		}
		seen[v.Order] = true
		free = append(free, v.Value)
	}
	for _, it := range sub.Items {
		free = append(free, it.ItemName)
	}
	for _, v := range free {
		if digits := strings.NewReplacer(" ", "", "-", "", ".", "").Replace(v); len(digits) == 16 && card.ValidNumber(digits) {
			fail("a card number is stored: %q", v)
		}
	}
}
