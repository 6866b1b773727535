package card_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/card"
)

func TestContainsCardDataFlags(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"card_number with spaces":         `{"card_number": "4111 1111 1111 1111"}`,
		"cc_number with dashes":           `{"cc_number": "4111-1111-1111-1111"}`,
		"pan as a JSON number":            `{"pan": 4111111111111111}`,
		"camelCase key, fails Luhn":       `{"cardNumber": "1234567890123456"}`,
		"bare number in a card object":    `{"payment": {"card": {"number": "5555555555554444"}}}`,
		"bare number, 12 digits":          `{"number": "123456789012"}`,
		"Luhn-valid under any key":        `{"items": [{"meta": {"notes": ["378282246310005"]}}]}`,
		"debvisa under any key, no Luhn":  `{"comment": "4513770000000001"}`,
		"top-level string":                `"4111111111111111"`,
		"second top-level value":          `{} {"pan": "4111111111111111"}`,
		"duplicate key hides nothing":     `{"card_number": "4111111111111111", "card_number": ""}`,
		"array under a card key":          `{"card_numbers": ["6062825624254001"]}`,
		"cc_verification_number":          `{"cc_verification_number": "123"}`,
		"security_code as a JSON number":  `{"security_code": 1234}`,
		"securityCode camelCase":          `{"securityCode": "123"}`,
		"nested cvv":                      `{"donation": {"card": {"cvv": "737"}}}`,
		"cvv2":                            `{"CVV2": "123"}`,
		"cvc with spaces":                 `{"cvc": " 123 "}`,
		"card verification value":         `{"card_verification_value": "1234"}`,
		"security code even under tokens": `{"token": {"cvv": "123"}}`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			require.True(t, card.ContainsCardData([]byte(body)), body)
		})
	}
}

func TestContainsCardDataIgnores(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"empty body":                     ``,
		"empty object":                   `{}`,
		"format-preserving token":        `{"token": "4111111111111111"}`,
		"uuid":                           `{"uuid": "12345678-1234-1234-1234-123456789012"}`,
		"id with dashes":                 `{"id": "550e8400-e29b-41d4-a716-446655440000"}`,
		"cellphone":                      `{"cellphone": "+54 9 11 4444-5555"}`,
		"uid":                            `{"uid": "11222333000181"}`,
		"document object":                `{"document": {"type": "CNPJ", "number": "11.222.333/0001-81"}}`,
		"millisecond timestamp":          `{"created_at": 1732262400000}`,
		"Luhn-valid, unknown brand":      `{"reference": "1000000000000008"}`,
		"Luhn-valid, wrong brand length": `{"reference": "40000000000002"}`,
		"fails Luhn under any key":       `{"reference": "4111111111111112"}`,
		"masked number":                  `{"card_number": "411111******1111"}`,
		"bin and last four":              `{"first_six_digits": "411111", "last_four_digits": "1111"}`,
		"short bare number":              `{"address": {"street": "Corrientes", "number": "1234"}}`,
		"empty cvv":                      `{"cvv": ""}`,
		"cvv too short":                  `{"cvv": "12"}`,
		"security code settings":         `{"security_code": {"length": 3, "card_location": "back", "mode": "mandatory"}}`,
		"cvv flag":                       `{"requires_cvv": true}`,
		"sms verification code":          `{"verification_code": "1234"}`,
		"decimal number":                 `{"amount": 4111111111111111.5}`,
		"amount":                         `{"amount": 8000, "currency": "ARS"}`,
		"bank account, CBU":              `{"cbu": "2850590940090418135201"}`,
		"phone, not a card":              `{"phone": "+54 9 11 4444-5555"}`,
		"document, CNPJ":                 `{"document": {"type": "CNPJ", "number": "11.222.333/0001-81"}}`,
		"uuid of digits":                 `{"idempotency_key": "41111111-1111-1111-1111-111111111111"}`,
		"card-shaped but spaced apart":   `{"notes": "4111 1111, 1111 1111"}`,
		"double separator breaks a run":  `{"notes": "4111  1111  1111  1111"}`,
		"12-digit maestro":               `{"notes": "501234567893"}`,
		"malformed JSON":                 `{"card_number": `,
		"not JSON":                       `card_number=4111111111111111`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			require.False(t, card.ContainsCardData([]byte(body)), body)
		})
	}
}

// A card number typed into a document, phone, account or any other free
// field is found and named by its path, however it is written.
func TestCardNumberInAnyFreeFieldIsFound(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ body, path string }{
		"donor document":              {`{"donor": {"uid_type": "DNI", "uid_number": "4111111111111111"}}`, "donor.uid_number"},
		"cardholder document, dashes": {`{"payment_method": {"cardholder_id_number": "4509-9535-6623-3704"}}`, "payment_method.cardholder_id_number"},
		"card holder id number":       {`{"card_holder_id_number": "4111111111111111"}`, "card_holder_id_number"},
		"document object number":      {`{"document": {"type": "DNI", "number": "5555 5555 5555 4444"}}`, "document.number"},
		"payer identification":        {`{"payer": {"identification": {"type": "DNI", "number": "4111111111111111"}}}`, "payer.identification.number"},
		"phone":                       {`{"phone_number": "4111111111111111"}`, "phone_number"},
		"number inside a phone":       {`{"phone": {"country_code": "54", "number": "4111111111111111"}}`, "phone.number"},
		"phones list":                 {`{"phones": [{"number": "1234"}, {"number": "4111111111111111"}]}`, "phones.1.number"},
		"bank account":                {`{"account_number": "4111111111111111"}`, "account_number"},
		"tax number":                  {`{"organization": {"tax_number": "378282246310005"}}`, "organization.tax_number"},
		"tokens list":                 {`{"tokens": ["4111111111111111"]}`, "tokens.0"},
		"payment method id":           {`{"payment_method_id": "4111111111111111"}`, "payment_method_id"},
		"card token with a prefix":    {`{"card_token": "tok_4111111111111111"}`, "card_token"},
		"inside a sentence":           {`{"form_fields": [{"order": 0, "value": "x"}, {"order": 3, "value": "mi tarjeta: 4111 1111 1111 1111 vence 12/30"}]}`, "form_fields.1.value"},
		"dots as separators":          {`{"street": "4111.1111.1111.1111"}`, "street"},
		"13-digit visa":               {`{"notes": "4222222222222"}`, "notes"},
		"maestro":                     {`{"notes": "6759649826438453"}`, "notes"},
		"as a JSON number":            {`{"zipcode": 5105105105105100}`, "zipcode"},
		"top level":                   {`"4111111111111111"`, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, []string{tc.path}, card.Find([]byte(tc.body)), tc.body)
		})
	}
}

// Only the gateway's and the card vault's card tokens and a Meta pixel id, by their exact keys, may look like a
// card number.
func TestOnlyNonFreeFieldsAreExemptByExactKey(t *testing.T) {
	t.Parallel()
	require.Empty(t, card.Find([]byte(`{"payment_method": {"gateway": {"name": "mercadopago", "token": "4111111111111111"}}}`)))
	// A vault token of the sandbox's shape (hex) with a Luhn-valid run of digits, as one a test drew did.
	require.Empty(t, card.Find([]byte(`{"payment_method": {"gateway": {"vault_token": "a4111111111111111f00d2c3b4a59687"}}}`)))
	require.Equal(t, []string{"payment_method.gateway.vault_tokens"},
		card.Find([]byte(`{"payment_method": {"gateway": {"vault_tokens": "a4111111111111111f00d2c3b4a59687"}}}`)))
	require.Empty(t, card.Find([]byte(`{"analytics": {"pixel_id": "4111111111111111"}}`)))
	require.Equal(t, []string{"pixel_ids"}, card.Find([]byte(`{"pixel_ids": "4111111111111111"}`)))
	require.Equal(t, []string{"payment_method.gateway.note"},
		card.Find([]byte(`{"payment_method": {"gateway": {"token": "ok", "note": "4111111111111111"}}}`)))
}

// Every field holding card data is named, so a form can mark each one.
func TestFindNamesEveryField(t *testing.T) {
	t.Parallel()
	body := `{"payment_method": {"cardholder_id_number": "4509953566233704", "cvv": "123"}, "donor": {"uid_number": "4509953566233704"}}`
	require.Equal(t, []string{"payment_method.cardholder_id_number", "payment_method.cvv", "donor.uid_number"}, card.Find([]byte(body)))
}

// A bare CNPJ can spell a Diners number (36000000003820 is both): valid CNPJ check digits win, so a
// Brazilian organisation can always type its tax id, while the same prefix with a card's Luhn digit
// and no CNPJ digits is still refused.
func TestBareCNPJIsNotTakenForACard(t *testing.T) {
	if !card.ValidNumber("36000000003820") {
		t.Fatal("the example must pass as a Diners number")
	}
	if paths := card.Find([]byte(`{"organization":{"uid":"36000000003820"}}`)); len(paths) != 0 {
		t.Fatalf("a valid CNPJ was refused at %v", paths)
	}
	if paths := card.Find([]byte(`{"donor":{"uid_number":"36000000000008"}}`)); len(paths) != 1 || !card.ValidNumber("36000000000008") {
		t.Fatalf("a Diners number without CNPJ check digits passed: %v", paths)
	}
}
