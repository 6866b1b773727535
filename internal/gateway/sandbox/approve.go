package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Decide is what an account holder does on the sandbox's authorization page, for tests that
// connect an account without a browser: it opens authorizeURL (a gateway.OAuth's AuthorizeURL),
// submits the page's form as nickname on site (MLA, MLB, …) with "Permitir" (approve) or
// "Rechazar", and returns where the sandbox redirects to (redirect_uri?code=…&state=… or
// ?error=access_denied&state=…), without following it.
func Decide(ctx context.Context, authorizeURL, nickname, site string, approve bool) (*url.URL, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page, err := url.Parse(authorizeURL)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authorizeURL, nil)
	if err != nil {
		return nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sandbox: authorization page answered %d: %s", res.StatusCode, body)
	}
	form := page.Query() // the page's hidden fields carry the request's query
	form.Set("nickname", nickname)
	form.Set("site_id", site)
	form.Set("decision", "deny")
	if approve {
		form.Set("decision", "approve")
	}
	page.RawQuery = ""
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, page.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if res, err = client.Do(req); err != nil {
		return nil, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("sandbox: authorization answered %d", res.StatusCode)
	}
	return url.Parse(res.Header.Get("Location"))
}

// CentralPosCode is the authorization code a CentralPos merchant copies from its back office, for
// tests that connect one without a browser: a new merchant legalName in country (AR, BR, …) at the
// sandbox served at baseURL. Single use, valid 10 minutes.
func CentralPosCode(ctx context.Context, baseURL, legalName, country string) (string, error) {
	body, err := json.Marshal(map[string]string{"legal_name": legalName, "country": country})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/__sandbox/centralpos/codes", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var out struct {
		Code string `json:"code"`
	}
	if res.StatusCode != http.StatusCreated || json.NewDecoder(res.Body).Decode(&out) != nil || out.Code == "" {
		return "", fmt.Errorf("sandbox: a CentralPos code answered %d", res.StatusCode)
	}
	return out.Code, nil
}
