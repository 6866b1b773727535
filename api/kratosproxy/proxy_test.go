package kratosproxy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
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
	t      *testing.T
	base   string
	hc     *http.Client
	accept string
}

func newBrowser(t *testing.T, s *apitest.Stack) *browser { return newBrowserAt(t, s, apitest.NewIP()) }

// newBrowserAt is a visitor with fresh cookies from a given IP (several people behind one address).
func newBrowserAt(t *testing.T, s *apitest.Stack, ip string) *browser {
	hc := apitest.HTTPClient(ip)
	hc.Jar, _ = cookiejar.New(nil)
	return &browser{t: t, base: s.Server.URL + kratosproxy.Prefix, hc: hc, accept: "application/json"}
}

func (b *browser) call(method, path string, body any) *http.Response {
	b.t.Helper()
	if body == nil {
		return b.send(method, path, "", nil)
	}
	raw, _ := json.Marshal(body)
	return b.send(method, path, "application/json", raw)
}

func (b *browser) send(method, path, contentType string, body []byte) *http.Response {
	b.t.Helper()
	req, err := http.NewRequest(method, b.base+path, bytes.NewReader(body))
	require.NoError(b.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", b.accept)
	res, err := b.hc.Do(req)
	require.NoError(b.t, err)
	b.t.Cleanup(func() { res.Body.Close() })
	return res
}

// start begins a browser flow of kind and returns its id and CSRF token.
func (b *browser) start(kind string) (id, csrf string) {
	b.t.Helper()
	res := b.call(http.MethodGet, "/self-service/"+kind+"/browser", nil)
	require.Equal(b.t, http.StatusOK, res.StatusCode)
	var flow apitest.KratosFlow
	require.NoError(b.t, json.NewDecoder(res.Body).Decode(&flow))
	return flow.ID, flow.CSRF()
}

// submit starts a browser flow of kind and submits fields as JSON with the flow's CSRF token.
func (b *browser) submit(kind string, fields map[string]any) *http.Response {
	b.t.Helper()
	id, csrf := b.start(kind)
	fields["csrf_token"] = csrf
	return b.call(http.MethodPost, "/self-service/"+kind+"?flow="+id, fields)
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
		{http.MethodDelete, "/sessions/whoami"},
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

func TestOneAddressIsSlowedByFailedSignInsOnly(t *testing.T) {
	s := apitest.Start(t)
	ip := apitest.NewIP()
	owner := s.NewUser(t, "office")
	for i := 1; i <= 25; i++ { // an office signing in all morning behind one address
		res := newBrowserAt(t, s, ip).submit("login", map[string]any{"method": "password", "identifier": owner.Email, "password": apitest.Password})
		require.Equal(t, http.StatusOK, res.StatusCode, "sign-in %d", i)
	}
	// A spray from that address: one wrong password for many e-mails. Twenty failures are free, the
	// twenty-first makes the address wait, whatever e-mail it tries next.
	spray := func(b *browser, i int) *http.Response {
		return b.submit("login", map[string]any{"method": "password", "identifier": fmt.Sprintf("nobody-%d@example.test", i), "password": "Wrong-Password-1"})
	}
	for i := 1; i <= 21; i++ {
		require.Equal(t, http.StatusBadRequest, spray(newBrowserAt(t, s, ip), i).StatusCode, "failure %d reaches Kratos", i)
	}
	require.GreaterOrEqual(t, retryAfter(t, spray(newBrowserAt(t, s, ip), 22)), 1)
	require.Equal(t, http.StatusBadRequest, spray(newBrowser(t, s), 23).StatusCode, "other addresses are not slowed")
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

func TestSignInThrottleReadsEveryBodyEncoding(t *testing.T) {
	s := apitest.Start(t)
	victim := s.NewUser(t, "encoded")
	for i := 1; i <= 4; i++ {
		res := newBrowser(t, s).submit("login", map[string]any{"method": "password", "identifier": victim.Email, "password": "Wrong-Password-1"})
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
	}
	// The e-mail now waits, however the form is encoded.
	form := func(csrf string) url.Values {
		return url.Values{"method": {"password"}, "identifier": {victim.Email}, "password": {apitest.Password}, "csrf_token": {csrf}}
	}
	b := newBrowser(t, s)
	id, csrf := b.start("login")
	res := b.send(http.MethodPost, "/self-service/login?flow="+id, "application/x-www-form-urlencoded", []byte(form(csrf).Encode()))
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "url-encoded")

	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range form(csrf) {
		require.NoError(t, w.WriteField(k, v[0]))
	}
	require.NoError(t, w.Close())
	res = b.send(http.MethodPost, "/self-service/login?flow="+id, w.FormDataContentType(), body.Bytes())
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "multipart")

	// Two identifiers: we would count one, Kratos might check the other.
	twice := form(csrf)
	twice["identifier"] = []string{"someone-else@example.org", victim.Email}
	res = b.send(http.MethodPost, "/self-service/login?flow="+id, "application/x-www-form-urlencoded", []byte(twice.Encode()))
	require.Equal(t, http.StatusBadRequest, res.StatusCode, "repeated identifier")

	res = b.send(http.MethodPost, "/self-service/login?flow="+id, "text/plain", []byte(form(csrf).Encode()))
	require.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode)

	// The web app's native form post goes back to its page, which tells how long to wait.
	b.accept = "text/html"
	res = b.send(http.MethodPost, "/self-service/login?flow="+id, "application/x-www-form-urlencoded", []byte(form(csrf).Encode()))
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/account/login", loc.Path)
	require.Equal(t, id, loc.Query().Get("flow"))
	require.Equal(t, res.Header.Get("Retry-After"), loc.Query().Get("throttled"))
}
