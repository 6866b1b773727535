package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Visa is the sandbox's (and MercadoPago's) Visa test card.
const Visa = "4509953566233704"

// CardToken tokenises the sandbox's Visa test card for a holder with an account's public key, as
// the donation form's browser does; the holder's first word decides the payments' outcome (APRO
// approves, OTHE rejects, CONT stays in process). The benches and the dev seed use it.
func CardToken(ctx context.Context, hc *http.Client, base, publicKey, holder string) (string, error) {
	return CardTokenOf(ctx, hc, base, publicKey, Visa, holder)
}

// CardTokenOf is CardToken for any card number; publicKey "" tokenises for the platform account.
func CardTokenOf(ctx context.Context, hc *http.Client, base, publicKey, pan, holder string) (string, error) {
	body, _ := json.Marshal(map[string]any{
		"card_number": pan, "security_code": "123", "expiration_month": 11,
		"expiration_year": time.Now().Year() + 3,
		"cardholder":      map[string]any{"name": holder, "identification": map[string]string{"type": "DNI", "number": "30111222"}},
	})
	to := strings.TrimRight(base, "/") + "/v1/card_tokens"
	if publicKey != "" {
		to += "?public_key=" + url.QueryEscape(publicKey)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, to, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return "", fmt.Errorf("card token: %s", res.Status)
	}
	var tok struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil {
		return "", err
	}
	return tok.ID, nil
}
