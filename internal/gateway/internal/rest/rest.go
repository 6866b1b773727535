// Package rest is the JSON-over-HTTP plumbing shared by the provider adapters:
// one place for timeouts, headers and turning refusals into *gateway.Error.
package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/gateway"
)

// Client calls one provider API.
type Client struct {
	BaseURL string
	HTTP    *http.Client
	Timeout time.Duration // per request, on top of the caller's context
	Header  http.Header   // sent with every request (authorisation)
	// Sign, when set, adds headers computed over each request's exact body (dLocal's signature).
	Sign func(h http.Header, body []byte)
}

// New checks the base URL and fills defaults.
func New(baseURL string, httpClient *http.Client, timeout time.Duration, header http.Header) (*Client, error) {
	if !strings.HasPrefix(baseURL, "http://") && !strings.HasPrefix(baseURL, "https://") {
		return nil, fmt.Errorf("rest: base URL %q must be http(s)", baseURL)
	}
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), HTTP: httpClient, Timeout: timeout, Header: header}, nil
}

// Do sends in (if not nil) as JSON and decodes a 2xx answer into out (if not
// nil). A non-2xx answer becomes *gateway.Error; anything else (timeouts,
// broken connections) is returned as is, since the outcome is then unknown.
func (c *Client) Do(ctx context.Context, method, path string, header http.Header, in, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	var body io.Reader
	var raw []byte
	if in != nil {
		var err error
		if raw, err = json.Marshal(in); err != nil {
			return fmt.Errorf("rest: encode %s %s: %w", method, path, err)
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
	if err != nil {
		return err
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if c.Sign != nil {
		c.Sign(req.Header, raw)
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("rest: read %s %s: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return decodeError(resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("rest: decode %s %s: %w", method, path, err)
	}
	return nil
}

// errorBody is MercadoPago's error shape; the card vault's carries at least message; CentralPos's
// is {"error":{"code","message","param"}} (MercadoPago's "error" is a string); dLocal's is
// {"code":5001,"message","param"}.
type errorBody struct {
	Message string          `json:"message"`
	Cause   json.RawMessage `json:"cause"`
	Error   json.RawMessage `json:"error"`
	Code    json.RawMessage `json:"code"`
	Param   string          `json:"param"`
}

// objectError is an error object: its code becomes the one cause, its param the cause's description.
type objectError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Param   string `json:"param"`
}

type cause struct {
	Code        json.RawMessage `json:"code"`
	Description string          `json:"description"`
}

func decodeError(status int, data []byte) *gateway.Error {
	var b errorBody
	_ = json.Unmarshal(data, &b)
	var obj objectError
	if json.Unmarshal(b.Error, &obj) == nil && obj.Code != "" {
		return gateway.NewError(status, obj.Message, []gateway.Cause{{Code: obj.Code, Description: obj.Param}})
	}
	if b.Message == "" {
		b.Message = http.StatusText(status)
	}
	if len(b.Code) > 0 && b.Cause == nil {
		return gateway.NewError(status, b.Message, []gateway.Cause{{Code: code(b.Code), Description: b.Param}})
	}
	// cause is a list on most endpoints and a single object on a few.
	var cs []cause
	if json.Unmarshal(b.Cause, &cs) != nil {
		var one cause
		if json.Unmarshal(b.Cause, &one) == nil && one.Code != nil {
			cs = []cause{one}
		}
	}
	causes := make([]gateway.Cause, 0, len(cs))
	for _, c := range cs {
		causes = append(causes, gateway.Cause{Code: code(c.Code), Description: c.Description})
	}
	return gateway.NewError(status, b.Message, causes)
}

// code reads a cause code that MercadoPago sends as a number (2006) or a string ("E301").
func code(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
