package account_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// TestEmailCheckLimitedPerTargetAcrossIPs: checking one e-mail from ten IPs spends its checks.
func TestEmailCheckLimitedPerTargetAcrossIPs(t *testing.T) {
	target := fmt.Sprintf("target-%d@example.org", time.Now().UnixNano())
	for i := 1; i <= 10; i++ {
		if st, body := newClient(t).do("POST", "/internal/api/validate/email", map[string]any{"email": target}); st != 200 {
			t.Fatalf("check %d: %d %v", i, st, body)
		}
	}
	c := newClient(t)
	if st, body := c.do("POST", "/internal/api/validate/email", map[string]any{"email": strings.ToUpper(target)}); st != 429 {
		t.Fatalf("eleventh check of the same e-mail, from a fresh IP: %d %v", st, body)
	}
	if st, body := c.do("POST", "/internal/api/validate/email", map[string]any{"email": "x" + target}); st != 200 {
		t.Fatalf("another e-mail from that IP: %d %v", st, body)
	}
}

// TestSignupChecksDoNotConfirmAnExistingAccount: the signup checks answer an account's e-mail and
// phone exactly like unused ones; only a complete registration is refused, with a generic answer.
func TestSignupChecksDoNotConfirmAnExistingAccount(t *testing.T) {
	email := fmt.Sprintf("existing-%d@example.org", time.Now().UnixNano())
	number, _ := uniquePhone()
	if st, body := newClient(t).do("POST", "/internal/api/accounts/register", registerBody(email, number), "Idempotency-Key", uuid.NewString()); st != 201 {
		t.Fatalf("register: %d %v", st, body)
	}

	c := newClient(t)
	if st, body := c.do("POST", "/internal/api/validate/email", map[string]any{"email": email}); st != 200 || body["valid"] != true {
		t.Fatalf("check of an account's e-mail: %d %v", st, body)
	}
	if st, body := c.do("POST", "/internal/api/validate/cellphone", map[string]any{"country": "AR", "number": number}); st != 200 {
		t.Fatalf("check of an account's phone: %d %v", st, body)
	}
	other, _ := uniquePhone()
	st, body := c.do("POST", "/internal/api/accounts/register", registerBody(email, other), "Idempotency-Key", uuid.NewString())
	errBody, _ := body["error"].(map[string]any)
	fields, _ := errBody["fields"].(map[string]any)
	if st != 422 || fields["user.email"] != i18n.T(i18n.EN, "signup.email_unavailable") {
		t.Fatalf("registration with a used e-mail: %d %v", st, body)
	}
}

// TestNoCodeToAPhoneWhoseDailyCapIsSpent: once a number got its codes for the day, neither signup
// nor "send code" sends it another SMS.
func TestNoCodeToAPhoneWhoseDailyCapIsSpent(t *testing.T) {
	email := fmt.Sprintf("pumped-%d@example.org", time.Now().UnixNano())
	number, e164 := uniquePhone()
	spent := ratelimit.WithStore(context.Background(), ratelimit.NewStore(tenantstest.Open(t).Directory()))
	for i := 0; i < 5; i++ { // the codes other requests sent it today
		if ok, _, err := ratelimit.CodeTo(spent, e164); err != nil || !ok {
			t.Fatalf("code %d: %v %v", i, ok, err)
		}
	}

	c := newClient(t)
	if st, body := c.do("POST", "/internal/api/accounts/register", registerBody(email, number), "Idempotency-Key", uuid.NewString()); st != 201 {
		t.Fatalf("register: %d %v", st, body)
	}
	req, _ := http.NewRequest("POST", c.base+"/manage/api/accounts/verifications/cellphone/send_code", nil)
	req.Header.Set("X-CSRF-Token", c.csrf)
	res, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if secs, _ := strconv.Atoi(res.Header.Get("Retry-After")); res.StatusCode != 429 || secs < 3600 { // not the 30 s resend gap
		t.Fatalf("send code: %d Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if st, body := c.do("POST", "/manage/api/accounts/verifications/email/send_code", nil); st != 200 {
		t.Fatalf("the e-mail still gets its code: %d %v", st, body)
	}
	c.codeFor(email, 0)
	if st, body := c.do("GET", "/dev/api/outbox?to="+e164, nil); st != 200 || len(body["messages"].([]any)) != 0 {
		t.Fatalf("messages to the phone: %d %v", st, body)
	}
}
