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
)

// Prefix is where the proxy is mounted.
const Prefix = "/.ory/kratos/public"

// The flows the web app runs through the proxy (web/src/features/account/kratos.ts) and the
// verification flow Kratos's own code e-mails link to.
var flows = map[string]bool{"login": true, "recovery": true, "settings": true, "verification": true}

// allowed reports whether method and path (below Prefix) are a self-service call we serve, and of
// which flow: GET …/{flow}/browser and …/{flow}/flows to start and read a flow, POST …/{flow} to
// submit it (GET too for verification: the link in the e-mail), and sign-out.
func allowed(method, path string) (flow string, ok bool) {
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

// Limits. Per IP first, so one address cannot spread guesses over many identifiers.
var (
	anyIP    = ratelimit.New("kratos_ip", 120, time.Minute) // every proxied call
	submitIP = map[string]*ratelimit.Limiter{
		"login":        ratelimit.New("kratos_login_ip", 30, 15*time.Minute),
		"recovery":     ratelimit.New("kratos_recovery_ip", 10, 15*time.Minute),
		"verification": ratelimit.New("kratos_verification_ip", 20, 15*time.Minute),
		"settings":     ratelimit.New("kratos_settings_ip", 30, 15*time.Minute),
	}
	loginID      = ratelimit.New("kratos_login_id", 10, 15*time.Minute) // sign-in tries per e-mail
	loginBackoff = &ratelimit.Backoff{Name: "kratos_login_fail", Free: 3, Base: time.Second, Max: 15 * time.Minute, Forget: 24 * time.Hour}
	settingsSess = ratelimit.New("kratos_settings_session", 20, 15*time.Minute)
	codesInFlow  = ratelimit.New("kratos_flow_codes", 10, time.Hour) // codes typed into one flow
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
		if submission(c.Request, flow) && !throttle(c, flow) {
			return
		}
		p.ServeHTTP(c.Writer, c.Request)
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

// throttle applies the flow's limits to a submission; false means the request was answered.
func throttle(c *gin.Context, flow string) bool {
	if !submitIP[flow].Check(c, c.ClientIP()) {
		return false
	}
	f, err := readFields(c)
	if err != nil {
		apierror.Abort(c, err)
		return false
	}
	if code := f.get("code"); code != "" {
		// A code typed into a flow: Kratos ties it to the flow, so the flow is the subject.
		return codesInFlow.Check(c, c.Query("flow"))
	}
	switch flow {
	case "login":
		return throttleLogin(c, f.get("identifier"))
	case "recovery", "verification":
		return codeCap(c, f.get("email"))
	case "settings":
		if !settingsSess.Check(c, sessionOf(c.Request)) {
			return false
		}
		// A profile submission makes Kratos send a code to each new or pending address.
		if f.get("method") == "profile" {
			return codeCap(c, f.get("traits.email")) && codeCap(c, f.get("traits.phone"))
		}
	}
	return true
}

// loginAttempt is the context key carrying the identifier of a sign-in to settleLogin.
type loginAttempt struct{}

func throttleLogin(c *gin.Context, identifier string) bool {
	identifier = strings.ToLower(strings.TrimSpace(identifier))
	if identifier == "" {
		return true // Kratos answers the missing field
	}
	ctx := c.Request.Context()
	wait, err := loginBackoff.Wait(ctx, identifier)
	if err != nil {
		apierror.Abort(c, err)
		return false
	}
	if wait > 0 {
		apierror.Abort(c, ratelimit.Error(c, wait))
		return false
	}
	if !loginID.Check(c, identifier) {
		return false
	}
	c.Request = c.Request.WithContext(context.WithValue(ctx, loginAttempt{}, identifier))
	return true
}

// settleLogin records a sign-in's outcome: Kratos sets the session cookie only on success (for the
// JSON and the browser form alike); anything else counts as a failure of that identifier.
func settleLogin(res *http.Response) error {
	ctx := res.Request.Context()
	identifier, ok := ctx.Value(loginAttempt{}).(string)
	if !ok {
		return nil
	}
	var err error
	if signedIn(res) {
		err = loginBackoff.Succeed(ctx, identifier)
	} else {
		_, err = loginBackoff.Fail(ctx, identifier)
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
func codeCap(c *gin.Context, addr string) bool {
	if strings.TrimSpace(addr) == "" {
		return true
	}
	ok, retry, err := ratelimit.CodeTo(c.Request.Context(), addr)
	switch {
	case err != nil:
		apierror.Abort(c, err)
	case !ok:
		apierror.Abort(c, ratelimit.Error(c, retry))
	}
	return err == nil && ok
}

// sessionOf is the subject for a signed-in person's settings: their session cookie, hashed by the
// store like every subject.
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
	if strings.HasPrefix(c.ContentType(), "application/json") {
		var m map[string]any
		_ = json.Unmarshal(raw, &m) // Kratos answers malformed bodies itself
		flatten(f, "", m)
		return f, nil
	}
	form, _ := url.ParseQuery(string(raw))
	for k, v := range form {
		f[k] = v[0]
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
