package account_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	c := newClient(t)
	raw := func(path, body string) int {
		req, _ := http.NewRequest("POST", c.base+path, bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	cases := []struct {
		name, path, body string
		want             int
	}{
		{"malformed", "/internal/api/validate/email", `{"email":`, 400},
		{"unknown field", "/internal/api/validate/email", `{"email":"a@b.co","x":1}`, 400},
		{"wrong type", "/internal/api/validate/cellphone", `{"country":"AR","number":5}`, 422},
		{"trailing data", "/internal/api/validate/uid", `{"country":"AR"} {}`, 400},
		{"oversize", "/internal/api/accounts/register", `{"user":{"first_name":"` + strings.Repeat("a", 2<<20) + `"}}`, 413},
		{"register unknown field", "/internal/api/accounts/register", `{"user":{},"organization":{},"plan":"x"}`, 400},
		{"register invalid", "/internal/api/accounts/register", `{"user":{"password":"short"},"organization":{"country":"AR","uid_type":"CUIT","uid":"1"}}`, 422},
		{"courier without auth", "/internal/courier/messages", `{"recipient":"a@b.co"}`, 401},
	}
	for _, tc := range cases {
		if got := raw(tc.path, tc.body); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
	// The password message says 12, in the request's language.
	st, body := c.do("POST", "/internal/api/accounts/register", map[string]any{"user": map[string]any{"password": "Short1"}, "organization": map[string]any{}})
	if st != 422 || !strings.Contains(body["error"].(map[string]any)["fields"].(map[string]any)["user.password"].(string), "12") {
		t.Fatalf("password message: %d %v", st, body)
	}
}
