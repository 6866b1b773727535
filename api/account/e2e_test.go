package account_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// client is a browser-like client of the running test server (real cookies, real Kratos).
type client struct {
	t    *testing.T
	base string
	hc   *http.Client
	csrf string
}

func newClient(t *testing.T) *client {
	t.Helper()
	cfg := tenantstest.Config(t)
	// Each client is its own browser, from its own IP: per-IP limits are shared by every process.
	hc := apitest.HTTPClient(apitest.NewIP())
	hc.Jar, _ = cookiejar.New(nil)
	hc.CheckRedirect = nil
	c := &client{t: t, base: cfg.PublicURL, hc: hc}
	// A valid double-submit CSRF token, as the page would carry it.
	var b [16]byte
	_, _ = rand.Read(b[:])
	nonce := hex.EncodeToString(b[:])
	m := hmac.New(sha256.New, []byte(os.Getenv("APORTA_SECRET")))
	m.Write([]byte("csrf:" + nonce))
	c.csrf = nonce + "." + hex.EncodeToString(m.Sum(nil))
	u, _ := url.Parse(c.base)
	hc.Jar.SetCookies(u, []*http.Cookie{{Name: "aporta_csrf", Value: c.csrf, Path: "/"}})
	return c
}

func (c *client) do(method, path string, body any, hdr ...string) (int, map[string]any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", c.csrf)
	req.Header.Set("Accept-Language", "en")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	if out == nil {
		out = map[string]any{"_raw": string(raw)}
	}
	return res.StatusCode, out
}

// codeFor polls the dev outbox for the newest code sent to an address after a message id.
func (c *client) codeFor(to string, after float64) (string, float64) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		st, body := c.do("GET", "/dev/api/outbox?to="+url.QueryEscape(to), nil)
		if st != 200 {
			c.t.Fatalf("outbox: %d %v", st, body)
		}
		msgs, _ := body["messages"].([]any)
		for _, m := range msgs {
			mm := m.(map[string]any)
			if id := mm["id"].(float64); id > after && mm["code"] != "" {
				return mm["code"].(string), id
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	c.t.Fatalf("no code for %s", to)
	return "", 0
}

var seq = time.Now().UnixNano() % 1_000_000

// uniquePhone returns a valid AR mobile number not used before in this run.
func uniquePhone() (string, string) {
	seq++
	n := fmt.Sprintf("91145%06d", seq%1_000_000)
	return n, "+54" + n
}

func registerBody(email, number string) map[string]any {
	return map[string]any{
		"user": map[string]any{
			"first_name": "María", "last_name": "González", "email": email, "password": "Segura-Clave-2026",
			"cellphone": map[string]any{"country": "AR", "number": number}, "organization_role_area": "Dirección",
		},
		"organization": map[string]any{"name": "Fundación Prueba", "uid": "20-17254359-7", "uid_type": "CUIT", "country": "AR"},
	}
}

func TestRegisterVerifyE2E(t *testing.T) {
	c := newClient(t)
	email := fmt.Sprintf("e2e-%d@example.org", time.Now().UnixNano())
	number, e164 := uniquePhone()

	st, body := c.do("POST", "/internal/api/validate/email", map[string]any{"email": email})
	if st != 200 || body["valid"] != true {
		t.Fatalf("validate email: %d %v", st, body)
	}
	st, body = c.do("POST", "/internal/api/validate/cellphone", map[string]any{"country": "AR", "number": number})
	if st != 200 {
		t.Fatalf("validate cellphone: %d %v", st, body)
	}
	st, body = c.do("POST", "/internal/api/validate/uid", map[string]any{"country": "AR", "uid_type": "CUIT", "uid": "20172543597"})
	if st != 200 {
		t.Fatalf("validate uid: %d %v", st, body)
	}
	st, body = c.do("POST", "/internal/api/validate/uid", map[string]any{"country": "AR", "uid_type": "CUIT", "uid": "20-17254359-8"})
	if st != 422 || !strings.Contains(fmt.Sprint(body), "check digit") {
		t.Fatalf("invalid uid: %d %v", st, body)
	}

	key := fmt.Sprintf("e2e-key-%d", time.Now().UnixNano())
	st, body = c.do("POST", "/internal/api/accounts/register", registerBody(email, number), "Idempotency-Key", key)
	if st != 201 || body["redirect_to"] != "/account/verifications" {
		t.Fatalf("register: %d %v", st, body)
	}
	org := body["organization"].(map[string]any)["uuid"].(string)

	st, me := c.do("GET", "/manage/api/user", nil)
	if st != 200 || me["email"] != email || me["role"] != "administrator" {
		t.Fatalf("current user: %d %v", st, me)
	}
	if ab := fmt.Sprint(me["abilities"]); !strings.Contains(ab, "manage_users") {
		t.Fatalf("abilities: %v", ab)
	}

	// Replay with the same key: same organisation, no second one.
	st, body = newClient(t).do("POST", "/internal/api/accounts/register", registerBody(email, number), "Idempotency-Key", key)
	if st != 200 || body["organization"].(map[string]any)["uuid"] != org {
		t.Fatalf("replay: %d %v", st, body)
	}

	// E-mail code from the outbox (sent at registration).
	code, _ := c.codeFor(email, 0)
	if st, body = c.do("POST", "/manage/api/accounts/verifications/email/verify", map[string]any{"code": "000000"}); st != 422 {
		t.Fatalf("wrong code: %d %v", st, body)
	}
	st, body = c.do("POST", "/manage/api/accounts/verifications/email/verify", map[string]any{"code": code})
	if st != 200 {
		t.Fatalf("verify email: %d %v", st, body)
	}

	// SMS: the first code was sent at registration; ask for a resend (after the gap) and use it.
	smsCode, smsID := c.codeFor(e164, 0)
	_ = smsCode
	st, body = c.do("POST", "/manage/api/accounts/verifications/cellphone/send_code", nil)
	if st != 429 { // within the resend gap
		t.Fatalf("resend within gap: %d %v", st, body)
	}
	st, body = c.do("POST", "/manage/api/accounts/verifications/cellphone/verify", map[string]any{"code": smsCode})
	if st != 200 {
		t.Fatalf("verify sms: %d %v", st, body)
	}
	v := body["verifications"].(map[string]any)
	if v["email_verified"] != true || v["cellphone_verified"] != true {
		t.Fatalf("verifications: %v", v)
	}
	_ = smsID
}
