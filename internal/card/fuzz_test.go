package card_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/card/cardtest"
)

// FuzzNumber checks the card number validators against properties that do not restate their code:
// exactly one check digit completes any digit string under Luhn, and leading zeros do not change
// it; the brand depends on the first 8 digits only; spaces and dashes never change a verdict; an
// accepted number is 12 to 19 digits of a known brand. CVV and expiry checks must not panic.
func FuzzNumber(f *testing.F) {
	for _, n := range []string{"4509953566233704", "4509 9535 6623 3704", "4111-1111-1111-1111", "5555555555554444", "378282246310005",
		"30569309025904", "6759000000000000005", "600000000007", "6362970000457013", "6062825624254001", "5895620000000001",
		"4513770000000001", "6200000000000001", "2200000000000004", "1000000000000008", "4111a11111111111", "", "0", "٤١١١", "４１１１"} {
		f.Add(n, "123", "11 / 30")
	}
	f.Add("3411", "1234", "1/2030")
	f.Add("", "", "13/99")
	f.Fuzz(func(t *testing.T, number, cvv, expiry string) {
		digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, number)
		if len(digits) > 0 && len(digits) < 40 {
			valid := 0
			for c := '0'; c <= '9'; c++ {
				if card.Luhn(digits + string(c)) {
					valid++
				}
			}
			if valid != 1 {
				t.Fatalf("%d check digits complete %q under Luhn", valid, digits)
			}
			if card.Luhn(digits) != card.Luhn("00"+digits) {
				t.Fatalf("leading zeros change Luhn(%q)", digits)
			}
		}
		if len(digits) >= 8 && card.DetectBrand(digits) != card.DetectBrand(digits[:8]) {
			t.Fatalf("brand of %q depends on more than its first 8 digits", digits)
		}
		if card.ValidNumber(digits) != card.ValidNumber(spaced(digits)) {
			t.Fatalf("spaces and dashes change ValidNumber(%q)", digits)
		}
		if card.ValidNumber(number) {
			clean := strings.NewReplacer(" ", "", "-", "", "\t", "", "\n", "", "\r", "").Replace(number)
			if clean != digits || len(digits) < 12 || len(digits) > 19 || card.DetectBrand(number) == card.Unknown {
				t.Fatalf("ValidNumber(%q) accepts a number that is not 12 to 19 digits of a known brand", number)
			}
		}
		if card.ValidCVV(card.DetectBrand(number), cvv) && (len(cvv) < 3 || len(cvv) > 4 || strings.Trim(cvv, "0123456789") != "") {
			t.Fatalf("ValidCVV accepts %q", cvv)
		}
		now := time.Date(2026, time.November, 22, 15, 4, 5, 0, time.UTC)
		if e, err := card.ParseExpiry(expiry, now); err == nil &&
			(e.Month < time.January || e.Month > time.December || e.Year*12+int(e.Month) < now.Year()*12+int(now.Month())) {
			t.Fatalf("ParseExpiry(%q) accepts %d/%d", expiry, e.Month, e.Year)
		}
	})
}

// spaced groups digits by four with a space and a dash, as donors type them.
func spaced(digits string) string {
	var b strings.Builder
	for i := range len(digits) {
		if i > 0 && i%4 == 0 {
			b.WriteString(" -"[i/4%2 : i/4%2+1])
		}
		b.WriteByte(digits[i])
	}
	return b.String()
}

// freeFields are where a donor types free text in the public form's body; a card number typed in
// any of them must be refused before anything stores or logs the body.
var freeFields = []func(pan any) any{
	func(pan any) any {
		return map[string]any{"donor": map[string]any{"first_name": pan, "last_name": "Pérez"}}
	},
	func(pan any) any {
		return map[string]any{"donor": map[string]any{"first_name": "Ana", "last_name": pan}}
	},
	func(pan any) any { return map[string]any{"donor": map[string]any{"email": pan}} },
	func(pan any) any {
		return map[string]any{"donation": map[string]any{"items": []any{map[string]any{"amount": "1500", "item_name": pan}}}}
	},
	func(pan any) any { return map[string]any{"payment_method": map[string]any{"cardholder_name": pan}} },
	func(pan any) any {
		return map[string]any{"form_fields": []any{map[string]any{"order": 0, "value": pan}}}
	},
	func(pan any) any { return map[string]any{"comment": pan} },
	func(pan any) any { return map[string]any{"notes": []any{"hola", pan}} },
	func(pan any) any { return pan },
}

// FuzzContainsCardData feeds any body to the card guard (it must not panic), and then places a
// Luhn-valid 16-digit number of a known brand, built from the fuzzed digits and written as donors
// write it, in one of the public form's free fields: the guard must flag it.
func FuzzContainsCardData(f *testing.F) {
	f.Add([]byte(`{"donor":{"first_name":"Ana"},"payment_method":{"gateway":{"token":"ff8080814c11e237014c1ff593b57b4d"}}}`), "450995356623370", uint8(0), uint8(0))
	f.Add([]byte(`{"card_number":"4111 1111 1111 1111"}`), "555555555555444", uint8(1), uint8(1))
	f.Add([]byte(`{"phone":{"number":"4111111111111111"}}`), "636297000045701", uint8(5), uint8(2))
	f.Add([]byte(`[[[[{"cvv":`), "606282562425400", uint8(8), uint8(3))
	f.Add([]byte(`{"a":1e400,"b":-0.0,"c":"\ud800"}`), "222300312200322", uint8(3), uint8(4))
	f.Fuzz(func(t *testing.T, body []byte, seed string, field, style uint8) {
		card.ContainsCardData(body)
		pan := cardtest.PAN(seed)
		if pan == "" {
			return
		}
		var value any = pan
		switch style % 5 {
		case 1:
			value = spaced(pan)
		case 2:
			value = strings.ReplaceAll(spaced(pan), " ", "-")
		case 3:
			value = " " + pan + " "
		case 4:
			value = json.Number(pan)
		}
		doc, err := json.Marshal(freeFields[int(field)%len(freeFields)](value))
		if err != nil {
			t.Fatal(err)
		}
		if !card.ContainsCardData(doc) {
			t.Fatalf("a card number in a free field passes the guard: %s", doc)
		}
	})
}
