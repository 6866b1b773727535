package account_test

import (
	"fmt"
	"testing"
	"time"
)

// TestRegisterKeyReusedWithAnotherBodyRefused: a signup retried with its Idempotency-Key used to
// answer for the first organisation whatever the retry said (another name here, echoed back but
// never stored). The key is now bound to its request: another body is a 409, the same body still
// finishes the same signup.
func TestRegisterKeyReusedWithAnotherBodyRefused(t *testing.T) {
	email := fmt.Sprintf("idem-%d@example.org", time.Now().UnixNano())
	number, _ := uniquePhone()
	key := fmt.Sprintf("idem-key-%d", time.Now().UnixNano())
	st, body := newClient(t).do("POST", "/internal/api/accounts/register", registerBody(email, number), "Idempotency-Key", key)
	if st != 201 {
		t.Fatalf("register: %d %v", st, body)
	}
	org := body["organization"].(map[string]any)["uuid"]

	renamed := registerBody(email, number)
	renamed["organization"].(map[string]any)["name"] = "Otra Fundación"
	st, body = newClient(t).do("POST", "/internal/api/accounts/register", renamed, "Idempotency-Key", key)
	e, _ := body["error"].(map[string]any)
	if st != 409 || e["code"] != "idempotency.key_reused" {
		t.Fatalf("same key, another body: %d %v", st, body)
	}

	st, body = newClient(t).do("POST", "/internal/api/accounts/register", registerBody(email, number), "Idempotency-Key", key)
	if st != 200 || body["organization"].(map[string]any)["uuid"] != org || body["organization"].(map[string]any)["name"] != "Fundación Prueba" {
		t.Fatalf("same key, same body: %d %v", st, body)
	}
}
