package apitest

import "time"

// FormPayload is the public donation form's submission (POST /d/:slug) of a card the browser
// tokenised as tok: one item of amount (a number or a decimal string), donated by email, with
// recurrency 0 (once) or 1 (monthly) and the form's idempotency key.
func FormPayload(tok string, recurrency int, amount any, email, key string) map[string]any {
	return map[string]any{
		"donation": map[string]any{"recurrency": recurrency, "items": []any{map[string]any{"uuid": "", "amount": amount, "item_name": "Donación", "quantity": 1}}},
		"payment_method": map[string]any{"gateway": map[string]any{"name": "mercadopago", "token": tok, "device_id": "abc"},
			"method_id": "visa", "bin": "450995", "last_four": "3704", "expiration_month": 11, "expiration_year": time.Now().Year() + 3,
			"cardholder_name": "APRO", "cardholder_id_type": "DNI", "cardholder_id_number": "12.345.678", "donor_is_cardholder": true},
		"donor":           map[string]any{"first_name": "Ana", "last_name": "Pérez", "email": email, "uid_type": "DNI", "uid_number": "12345678"},
		"idempotency_key": key,
	}
}
