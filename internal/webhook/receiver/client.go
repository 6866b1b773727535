package receiver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// Box is a client of one box of a receiver at BaseURL (the sandbox CRM's address).
type Box struct {
	BaseURL string
	Name    string
}

// URL is the box's address: what an endpoint registers.
func (b Box) URL() string { return b.BaseURL + "/__webhooks/" + b.Name }

func (b Box) call(ctx context.Context, method, path string, in, out any) error {
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, b.URL()+path, &body)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return fmt.Errorf("receiver %s %s: %s", method, path, res.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// Fail makes the next times deliveries (-1: all) answer status; times 0 makes it answer 200 again.
func (b Box) Fail(ctx context.Context, status, times int) error {
	return b.call(ctx, http.MethodPut, "/fail", map[string]int{"status": status, "times": times}, nil)
}

// Deliveries are what the box was posted, oldest first.
func (b Box) Deliveries(ctx context.Context) ([]Received, error) {
	var out struct {
		Deliveries []Received `json:"deliveries"`
	}
	return out.Deliveries, b.call(ctx, http.MethodGet, "", nil, &out)
}
