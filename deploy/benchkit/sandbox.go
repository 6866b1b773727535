// Package benchkit holds what the bench commands share: the browser's and the operator's calls to
// the sandbox gateway of the stack they run against.
package benchkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// CardToken tokenises the sandbox's Visa test card for a holder, as the donation form's browser
// does; the holder's first word decides the payment's outcome (APRO approves, OTHE rejects, CONT
// stays in process: internal/gateway/sandbox).
func CardToken(ctx context.Context, hc *http.Client, base, holder string) (string, error) {
	body, _ := json.Marshal(map[string]any{
		"card_number": "4509953566233704", "security_code": "123", "expiration_month": 11,
		"expiration_year": time.Now().Year() + 3,
		"cardholder":      map[string]any{"name": holder, "identification": map[string]string{"type": "DNI", "number": "30111222"}},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(base, "/")+"/v1/card_tokens", bytes.NewReader(body))
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

// Payment is a payment as the sandbox keeps it.
type Payment struct {
	ID                int64          `json:"id"`
	Status            string         `json:"status"`
	ExternalReference string         `json:"external_reference"`
	Metadata          map[string]any `json:"metadata"`
}

// Payments lists every payment the sandbox has taken, oldest first (GET /__sandbox/payments).
func Payments(ctx context.Context, base string) ([]Payment, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/__sandbox/payments", nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sandbox payments: %s", res.Status)
	}
	var ps []Payment
	return ps, json.NewDecoder(res.Body).Decode(&ps)
}
