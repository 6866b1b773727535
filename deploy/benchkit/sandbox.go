// Package benchkit holds what the bench commands share: the browser's and the operator's calls to
// the sandbox gateway of the stack they run against.
package benchkit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

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
