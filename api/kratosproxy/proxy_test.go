package kratosproxy_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/kratosproxy"
)

// browser is one visitor of the proxy, from its own IP, with its own cookies, speaking JSON to
// Kratos's browser flows as the SPA can.
type browser struct {
	t    *testing.T
	base string
	hc   *http.Client
}

func newBrowser(t *testing.T, s *apitest.Stack) *browser {
	hc := apitest.HTTPClient(apitest.NewIP())
	hc.Jar, _ = cookiejar.New(nil)
	return &browser{t: t, base: s.Server.URL + kratosproxy.Prefix, hc: hc}
}

func (b *browser) call(method, path string, body any) *http.Response {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.base+path, rd)
	require.NoError(b.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	res, err := b.hc.Do(req)
	require.NoError(b.t, err)
	b.t.Cleanup(func() { res.Body.Close() })
	return res
}

// submit starts a browser flow of kind and submits fields with the flow's CSRF token.
func (b *browser) submit(kind string, fields map[string]any) *http.Response {
	b.t.Helper()
	res := b.call(http.MethodGet, "/self-service/"+kind+"/browser", nil)
	require.Equal(b.t, http.StatusOK, res.StatusCode)
	var flow struct {
		ID string `json:"id"`
		UI struct {
			Nodes []struct {
				Attributes struct {
					Name  string `json:"name"`
					Value any    `json:"value"`
				} `json:"attributes"`
			} `json:"nodes"`
		} `json:"ui"`
	}
	require.NoError(b.t, json.NewDecoder(res.Body).Decode(&flow))
	for _, n := range flow.UI.Nodes {
		if n.Attributes.Name == "csrf_token" {
			fields["csrf_token"] = n.Attributes.Value
		}
	}
	return b.call(http.MethodPost, "/self-service/"+kind+"?flow="+flow.ID, fields)
}

func retryAfter(t *testing.T, res *http.Response) int {
	t.Helper()
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	secs, err := strconv.Atoi(res.Header.Get("Retry-After"))
	require.NoError(t, err)
	return secs
}

func TestKratosProxyAnswers404OutsideTheWebAppsFlows(t *testing.T) {
	s := apitest.Start(t)
	b := newBrowser(t, s)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/self-service/registration/browser"}, // signup is ours, not Kratos's
		{http.MethodPost, "/self-service/registration?flow=00000000-0000-0000-0000-000000000000"},
		{http.MethodGet, "/self-service/login/api"},
		{http.MethodGet, "/self-service/login/browser/../../../admin/identities"},
		{http.MethodGet, "/sessions/whoami"},
		{http.MethodGet, "/sessions"},
		{http.MethodGet, "/health/alive"},
		{http.MethodGet, "/schemas"},
		{http.MethodPut, "/self-service/login"},
	} {
		res := b.call(c.method, c.path, nil)
		require.Equal(t, http.StatusNotFound, res.StatusCode, "%s %s", c.method, c.path)
	}
	for _, kind := range []string{"login", "recovery"} {
		res := b.call(http.MethodGet, "/self-service/"+kind+"/browser", nil)
		require.Equal(t, http.StatusOK, res.StatusCode, "the web app's %s flow", kind)
	}
}

func TestRepeatedFailedSignInsForOneEmailWaitLonger(t *testing.T) {
	s := apitest.Start(t)
	victim := s.NewUser(t, "victim")
	// Every try comes from another IP: the wait belongs to the e-mail, not to an address.
	try := func(password string) *http.Response {
		return newBrowser(t, s).submit("login", map[string]any{"method": "password", "identifier": victim.Email, "password": password})
	}
	for i := 1; i <= 4; i++ {
		require.Equal(t, http.StatusBadRequest, try("Wrong-Password-1").StatusCode, "failure %d reaches Kratos", i)
	}
	// From the fourth failure on, each failure doubles the wait; even the right password waits.
	for _, want := range []int{1, 2, 4} {
		require.Equal(t, want, retryAfter(t, try(apitest.Password)))
		time.Sleep(time.Duration(want) * time.Second)
		if want < 4 {
			require.Equal(t, http.StatusBadRequest, try("Wrong-Password-1").StatusCode)
		}
	}
	require.Equal(t, http.StatusOK, try(apitest.Password).StatusCode, "after the wait the owner signs in")
	require.Equal(t, http.StatusBadRequest, try("Wrong-Password-1").StatusCode, "a success forgets the failures")

	other := s.NewUser(t, "bystander")
	require.Equal(t, http.StatusOK, newBrowser(t, s).submit("login", map[string]any{
		"method": "password", "identifier": other.Email, "password": apitest.Password}).StatusCode)
}

func TestRecoveryCodesForOneAddressCappedPerDay(t *testing.T) {
	s := apitest.Start(t)
	victim := s.NewUser(t, "bombed")
	ask := func(email string) *http.Response {
		return newBrowser(t, s).submit("recovery", map[string]any{"method": "code", "email": email})
	}
	for i := 1; i <= 10; i++ { // each from another IP, as a botnet would
		require.Equal(t, http.StatusOK, ask(victim.Email).StatusCode, "code %d", i)
	}
	require.Greater(t, retryAfter(t, ask(victim.Email)), 23*3600, "the address's codes for the day are spent")
	require.Equal(t, http.StatusOK, ask(s.NewUser(t, "other").Email).StatusCode, "other addresses are not")
}
