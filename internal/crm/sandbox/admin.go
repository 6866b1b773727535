package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/aporta/aporta/internal/crm"
)

// Admin drives a running sandbox CRM's admin endpoints (tests, benches).
type Admin struct {
	BaseURL string
	HTTP    *http.Client // a 10s client when nil
}

// Org is a sandbox org's connected app.
type Org struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	DailyLimit   int    `json:"daily_limit"`
}

// Credentials are the org's credentials at this sandbox.
func (a Admin) Credentials(o Org) crm.Credentials {
	return crm.Credentials{LoginURL: a.BaseURL, ClientID: o.ClientID, ClientSecret: o.ClientSecret}
}

func (a Admin) post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return a.do(req, out)
}

func (a Admin) do(req *http.Request, out any) error {
	hc := a.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	res, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return fmt.Errorf("sandbox crm %s %s: %s", req.Method, req.URL.Path, res.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// NewOrg makes an org of its own with a daily limit (DefaultDailyLimit when zero).
func (a Admin) NewOrg(ctx context.Context, dailyLimit int) (Org, error) {
	var o Org
	err := a.post(ctx, "/__sandbox/orgs", map[string]any{"daily_limit": dailyLimit}, &o)
	return o, err
}

// Fault arms a fault for the org's next calls.
func (a Admin) Fault(ctx context.Context, clientID string, f Fault) error {
	return a.post(ctx, "/__sandbox/orgs/"+url.PathEscape(clientID)+"/faults", f, nil)
}

// Usage moves the org's budget: used and max when not nil, and reset reopens the window.
func (a Admin) Usage(ctx context.Context, clientID string, used, limit *int, reset bool) error {
	return a.post(ctx, "/__sandbox/orgs/"+url.PathEscape(clientID)+"/usage", map[string]any{"used": used, "max": limit, "reset": reset}, nil)
}

// Records lists the org's records of an sObject, oldest first.
func (a Admin) Records(ctx context.Context, clientID, sobject string) ([]crm.Record, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.BaseURL+"/__sandbox/orgs/"+url.PathEscape(clientID)+"/records/"+url.PathEscape(sobject), nil)
	if err != nil {
		return nil, err
	}
	var out struct {
		Records []crm.Record `json:"records"`
	}
	err = a.do(req, &out)
	return out.Records, err
}
