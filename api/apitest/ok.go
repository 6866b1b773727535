package apitest

import (
	"net/http"
	"testing"
)

// OK sends a JSON request as c that must answer 200 and decodes the answer.
func OK[T any](t testing.TB, c *Client, method, path string, body any) T {
	t.Helper()
	res := c.JSON(method, path, body)
	if res.Status != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
	}
	var v T
	res.Decode(t, &v)
	return v
}
