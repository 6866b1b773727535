// Package kratosproxy puts Kratos's public API on Aporta's origin (/.ory/kratos/public/*path), so its
// session cookie is first-party. Only the self-service flows the web app uses pass (sign-in,
// recovery, settings, verification, sign-out); anything else is 404. Submissions are throttled per
// IP and per identifier: failed sign-ins for one e-mail double the wait before the next try, codes
// asked for one address count against its daily cap, and codes typed into one flow are capped.
package kratosproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/i18n"
)

// Prefix is where the proxy is mounted.
const Prefix = "/.ory/kratos/public"

// The flows the web app runs through the proxy (web/src/features/accounts/kratos.ts) and the
// verification flow Kratos's own code e-mails link to.
var flows = map[string]bool{"login": true, "recovery": true, "settings": true, "verification": true}

// allowed reports whether method and path (below Prefix) are a self-service call we serve, and of
// which flow: GET …/{flow}/browser and …/{flow}/flows to start and read a flow, POST …/{flow} to
// submit it (GET too for verification: the link in the e-mail), sign-out, and reading one's own
// session (the invitation page asks who is signed in).
func allowed(method, path string) (flow string, ok bool) {
	if path == "/sessions/whoami" {
		return "whoami", method == http.MethodGet
	}
	rest, ok := strings.CutPrefix(path, "/self-service/")
	if !ok {
		return "", false
	}
	name, sub, _ := strings.Cut(rest, "/")
	if name == "logout" {
		return name, method == http.MethodGet && (sub == "" || sub == "browser")
	}
	if !flows[name] {
		return "", false
	}
	switch {
	case sub == "browser" || sub == "flows":
		return name, method == http.MethodGet
	case sub == "":
		return name, method == http.MethodPost || (method == http.MethodGet && name == "verification")
	}
	return "", false
}

func init() {
	i18n.Register(i18n.Catalog{
		"kratos.repeated_field": {
			i18n.ES: "Un campo del formulario vino repetido. Recarga la página e inténtalo de nuevo.",
			i18n.EN: "A form field was sent twice. Reload the page and try again.",
			i18n.PT: "Um campo do formulário veio repetido. Recarregue a página e tente novamente.",
		},
		"kratos.unsupported_media": {
			i18n.ES: "Envía el formulario como JSON o como formulario web.",
			i18n.EN: "Send the form as JSON or as a web form.",
			i18n.PT: "Envie o formulário como JSON ou como formulário web.",
		},
	})
}

// Limits. Per IP first, so one address cannot spread guesses over many identifiers.
var (
	anyIP = ratelimit.New("kratos_ip", 120, time.Minute) // every proxied call
	// Sign-ins are throttled by their failures only (below), so an office behind one address signing
	// in all morning is never stopped; guessing passwords, for one e-mail or spread over many, is.
	submitIP = map[string]*ratelimit.Limiter{
		"recovery":     ratelimit.New("kratos_recovery_ip", 10, 15*time.Minute),
		"verification": ratelimit.New("kratos_verification_ip", 20, 15*time.Minute),
		"settings":     ratelimit.New("kratos_settings_ip", 30, 15*time.Minute),
	}
	loginBackoff   = &ratelimit.Backoff{Name: "kratos_login_fail", Free: 3, Base: time.Second, Max: 15 * time.Minute, Forget: 24 * time.Hour}
	loginIPBackoff = &ratelimit.Backoff{Name: "kratos_login_ip_fail", Free: 20, Base: time.Second, Max: 15 * time.Minute, Forget: time.Hour}
	settingsSess   = ratelimit.New("kratos_settings_session", 20, 15*time.Minute)
	codesInFlow    = ratelimit.New("kratos_flow_codes", 10, time.Hour) // codes typed into one flow
)

// maxForm bounds a submission read before it is proxied (Kratos's forms are a few hundred bytes).
const maxForm = 64 << 10

// New builds the proxy to Kratos's public URL.
func New(target string) (gin.HandlerFunc, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	p := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.URL.Path = "/" + strings.TrimPrefix(pr.In.URL.Path, Prefix+"/")
			pr.Out.URL.RawPath = ""
			pr.SetXForwarded()
		},
		ModifyResponse: settleLogin,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			slog.ErrorContext(r.Context(), "kratos proxy", "error", err)
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	return func(c *gin.Context) {
		flow, ok := allowed(c.Request.Method, c.Param("path"))
		if !ok {
			apierror.Abort(c, apierror.NotFound())
			return
		}
		if !anyIP.Check(c, c.ClientIP()) {
			return
		}
		if submission(c.Request, flow) {
			wait, err := throttle(c, flow)
			if err != nil {
				apierror.Abort(c, err)
				return
			}
			if wait > 0 {
				refuse(c, flow, wait)
				return
			}
		}
		p.ServeHTTP(c.Writer, c.Request)
		// A sign-out, a settings change or a verification changes the session: the API resolves it afresh.
		identity.ForgetSession(c.GetHeader("Cookie"))
	}, nil
}

// submission tells a call that submits a flow (and so may guess a password or a code, or ask for a
// code to be sent) from one that starts or reads it.
func submission(r *http.Request, flow string) bool {
	if flow == "logout" {
		return false
	}
	return r.Method == http.MethodPost || r.URL.Query().Has("code")
}

// pages are the web app's pages for the flows (kratos.yml's ui_url), where a refused form post goes
// back to.
var pages = map[string]string{"login": "/account/login", "recovery": "/account/recovery", "settings": "/account/settings"}

// refuse answers a throttled submission: 429 with Retry-After, or for the web app's native form
// post, back to its page, which says how long to wait (?throttled=seconds).
func refuse(c *gin.Context, flow string, wait time.Duration) {
	e := ratelimit.Refused(wait)
	page, ok := pages[flow]
	if !ok || strings.Contains(c.GetHeader("Accept"), "application/json") {
		apierror.Abort(c, e)
		return
	}
	retry := e.Header.Get("Retry-After")
	c.Header("Retry-After", retry)
	q := url.Values{"flow": {c.Query("flow")}, "throttled": {retry}}
	c.Redirect(http.StatusSeeOther, page+"?"+q.Encode())
	c.Abort()
}

// throttle applies the flow's limits to a submission and returns how long it must wait (0: it may
// go on).
func throttle(c *gin.Context, flow string) (time.Duration, error) {
	ctx := c.Request.Context()
	if l, ok := submitIP[flow]; ok {
		if wait, err := take(ctx, l, c.ClientIP()); wait > 0 || err != nil {
			return wait, err
		}
	}
	f, err := readFields(c)
	if err != nil {
		return 0, err
	}
	if f.get("code") != "" {
		// A code typed into a flow: Kratos ties it to the flow, so the flow is the subject.
		return take(ctx, codesInFlow, c.Query("flow"))
	}
	switch flow {
	case "login":
		return throttleLogin(c, f.get("identifier"))
	case "recovery", "verification":
		return codeCap(ctx, f.get("email"))
	case "settings":
		if s := sessionOf(c.Request); s != "" {
			if wait, err := take(ctx, settingsSess, s); wait > 0 || err != nil {
				return wait, err
			}
		}
		// A profile submission makes Kratos send a code to each new or pending address.
		if f.get("method") == "profile" {
			if wait, err := codeCap(ctx, f.get("traits.email")); wait > 0 || err != nil {
				return wait, err
			}
			return codeCap(ctx, f.get("traits.phone"))
		}
	}
	return 0, nil
}

// take counts one event for key and returns the wait if it is over the limit.
func take(ctx context.Context, l *ratelimit.Limiter, key string) (time.Duration, error) {
	ok, retry, err := l.Allow(ctx, key)
	if err != nil || ok {
		return 0, err
	}
	return retry, nil
}

// loginAttempt is the context key carrying a sign-in's identifier and client IP to settleLogin.
type loginAttempt struct{}

type attempt struct{ identifier, ip string }

func throttleLogin(c *gin.Context, identifier string) (time.Duration, error) {
	identifier = strings.ToLower(strings.TrimSpace(identifier))
	if identifier == "" {
		return 0, nil // Kratos answers the missing field
	}
	ctx := c.Request.Context()
	if wait, err := loginIPBackoff.Wait(ctx, c.ClientIP()); wait > 0 || err != nil {
		return wait, err
	}
	if wait, err := loginBackoff.Wait(ctx, identifier); wait > 0 || err != nil {
		return wait, err
	}
	c.Request = c.Request.WithContext(context.WithValue(ctx, loginAttempt{}, attempt{identifier, c.ClientIP()}))
	return 0, nil
}

// settleLogin records a sign-in's outcome: Kratos sets the session cookie only on success (for the
// JSON and the browser form alike); anything else counts as a failure of the identifier and of the
// IP. A success clears the identifier's failures, never the IP's: one known password must not
// reset a spray over other people's e-mails.
func settleLogin(res *http.Response) error {
	ctx := res.Request.Context()
	a, ok := ctx.Value(loginAttempt{}).(attempt)
	if !ok {
		return nil
	}
	var err error
	if signedIn(res) {
		err = loginBackoff.Succeed(ctx, a.identifier)
	} else if _, err = loginBackoff.Fail(ctx, a.identifier); err == nil {
		_, err = loginIPBackoff.Fail(ctx, a.ip)
	}
	if err != nil {
		slog.WarnContext(ctx, "recording a sign-in outcome", "error", err)
	}
	return nil
}

func signedIn(res *http.Response) bool {
	for _, c := range res.Cookies() {
		if c.Name == identity.SessionCookie && c.Value != "" && c.MaxAge >= 0 {
			return true
		}
	}
	return false
}

// codeCap counts a code asked for addr against the address's daily cap.
func codeCap(ctx context.Context, addr string) (time.Duration, error) {
	if strings.TrimSpace(addr) == "" {
		return 0, nil
	}
	ok, retry, err := ratelimit.CodeTo(ctx, addr)
	if err != nil || ok {
		return 0, err
	}
	return retry, nil
}

// sessionOf is the subject for a signed-in person's settings: their session cookie, hashed by the
// store like every subject ("" without one: Kratos refuses the submission anyway).
func sessionOf(r *http.Request) string {
	if ck, err := r.Cookie(identity.SessionCookie); err == nil {
		return ck.Value
	}
	return ""
}

// fields are a submission's values, flattened ("traits.email"), whether posted as a form or JSON.
type fields map[string]string

func (f fields) get(k string) string { return f[k] }

// readFields parses the submission's body and puts it back for the proxy to send on.
func readFields(c *gin.Context) (fields, error) {
	f := fields{}
	for k, v := range c.Request.URL.Query() {
		if k == "code" && len(v) > 0 {
			f[k] = v[0]
		}
	}
	if c.Request.Body == nil || c.Request.Method != http.MethodPost {
		return f, nil
	}
	raw, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxForm))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, apierror.New(http.StatusRequestEntityTooLarge, "body_too_large", request.HumanBytes(maxForm))
	}
	if err != nil {
		return nil, err
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(raw))
	switch c.ContentType() {
	case "application/json":
		var m map[string]any
		_ = json.Unmarshal(raw, &m) // Kratos answers malformed bodies itself
		flatten(f, "", m)
	case "application/x-www-form-urlencoded", "multipart/form-data":
		// The same parser Kratos's decoder uses, on a copy of the body.
		r, _ := http.NewRequest(http.MethodPost, "/", bytes.NewReader(raw))
		r.Header.Set("Content-Type", c.GetHeader("Content-Type"))
		_ = r.ParseMultipartForm(maxForm) // parses url-encoded forms too
		for k, v := range r.PostForm {
			if len(v) > 1 {
				// Which of two identifiers would Kratos check? Leave no room for a different answer.
				return nil, apierror.BadRequest("kratos.repeated_field")
			}
			f[k] = v[0]
		}
	default:
		return nil, apierror.New(http.StatusUnsupportedMediaType, "kratos.unsupported_media")
	}
	return f, nil
}

func flatten(f fields, prefix string, m map[string]any) {
	for k, v := range m {
		switch v := v.(type) {
		case string:
			f[prefix+k] = v
		case map[string]any:
			flatten(f, prefix+k+".", v)
		}
	}
}
