// Package bankdebit is the client of the bank-debit network that collects CBU direct debits for the
// platform (organisation-and-account §4 "Payment flow": an organisation's subscription paid by CBU
// debit). A debit is submitted against the payer's mandate and decided later by the bank: it stays
// "submitted" until a read finds it "confirmed" or "rejected". The sandbox gateway speaks the same
// protocol (internal/gateway/sandbox/bankdebit.go).
//
// Money may move on a submission whose answer was lost, so Submit returns a
// *gateway.UnknownOutcomeError for a timeout, a dropped connection or a 5xx: read the reference
// back with Find, never submit again under a new key.
package bankdebit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/gateway"
)

// Statuses of a debit.
const (
	Submitted = "submitted"
	Confirmed = "confirmed"
	Rejected  = "rejected"
)

// Debit is one debit against a mandate.
type Debit struct {
	ID          string     `json:"id,omitempty"`
	MandateID   string     `json:"mandate_id"`
	CBU         string     `json:"cbu"`
	AmountMinor int64      `json:"amount_minor"`
	Currency    string     `json:"currency"`
	Reference   string     `json:"reference"` // the caller's: one per thing paid
	Description string     `json:"description,omitempty"`
	Status      string     `json:"status,omitempty"`
	Reason      string     `json:"reason,omitempty"` // why the bank rejected it
	SubmittedAt time.Time  `json:"submitted_at,omitzero"`
	DecidedAt   *time.Time `json:"decided_at,omitempty"`
}

// Client talks to the network with the platform's token.
type Client struct {
	BaseURL string // e.g. https://…/bankdebit/v1
	Token   string
	HTTP    *http.Client // 30-second timeout when nil
}

// Submit sends a debit under the idempotency key: the same key answers the first submission again.
func (c *Client) Submit(ctx context.Context, key string, d Debit) (Debit, error) {
	body, err := json.Marshal(d)
	if err != nil {
		return Debit{}, err
	}
	var out Debit
	if err := c.do(ctx, http.MethodPost, "/debits", key, body, &out); err != nil {
		return Debit{}, gateway.UnknownUnlessRefused(err)
	}
	return out, nil
}

// Find lists the debits submitted under a reference, oldest first (reading them lets the bank
// decide the ones it has cleared).
func (c *Client) Find(ctx context.Context, reference string) ([]Debit, error) {
	var out struct {
		Results []Debit `json:"results"`
	}
	err := c.do(ctx, http.MethodGet, "/debits?reference="+url.QueryEscape(reference), "", nil, &out)
	return out.Results, err
}

func (c *Client) do(ctx context.Context, method, path, key string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	h := c.HTTP
	if h == nil {
		h = &http.Client{Timeout: 30 * time.Second}
	}
	res, err := h.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(data, &e)
		return gateway.NewError(res.StatusCode, e.Message, nil)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("bankdebit: %s %s: %w", method, path, err)
	}
	return nil
}
