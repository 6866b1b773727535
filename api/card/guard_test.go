package card_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/card"
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
		"card token":                     `{"card_token": "tok_4111111111111111"}`,
		"tokens list":                    `{"tokens": ["4111111111111111"]}`,
		"uuid":                           `{"uuid": "12345678-1234-1234-1234-123456789012"}`,
		"id with dashes":                 `{"id": "550e8400-e29b-41d4-a716-446655440000"}`,
		"payment method id":              `{"payment_method_id": "4111111111111111"}`,
		"cellphone":                      `{"cellphone": "+54 9 11 4444-5555"}`,
		"phone number, Luhn-valid":       `{"phone_number": "4111111111111111"}`,
		"number inside a phone object":   `{"phone": {"country_code": "54", "number": "4111111111111111"}}`,
		"list inside a phone object":     `{"phone": {"alternates": ["4111111111111111"]}}`,
		"phones list":                    `{"phones": [{"number": "4111111111111111"}]}`,
		"uid":                            `{"uid": "11222333000181"}`,
		"document object":                `{"document": {"type": "CNPJ", "number": "11.222.333/0001-81"}}`,
		"payer identification":           `{"payer": {"identification": {"type": "DNI", "number": "4111111111111111"}}}`,
		"cardholder document number":     `{"cardholder_document_number": "4111111111111111"}`,
		"cardholder id number":           `{"card_holder_id_number": "4111111111111111"}`,
		"tax number":                     `{"organization": {"tax_number": "4111111111111111"}}`,
		"bank account":                   `{"account_number": "4111111111111111", "cbu": "2850590940090418135201"}`,
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
