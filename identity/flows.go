package identity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	kratos "github.com/ory/kratos-client-go"
)

// Flows runs Kratos's self-service flows server-side on behalf of a person: the login that signs a
// new organisation's administrator in, verification by code, and the settings submission that makes
// Kratos send codes to pending addresses (the only way Kratos v1.3 sends an SMS verification code:
// a public verification flow accepts an e-mail address only).
type Flows struct {
	public string
	hc     *http.Client
}

// NewFlows builds the runner for Kratos's public URL.
func NewFlows(publicURL string, hc *http.Client) *Flows {
	return &Flows{public: strings.TrimRight(publicURL, "/"), hc: hc}
}

// Jar carries a browser's cookies through server-side calls to Kratos and collects the Set-Cookie
// headers Kratos answers with, for the handler to forward to the browser.
type Jar struct {
	names      []string
	values     map[string]string
	SetCookies []string
}

// NewJar starts from a request's Cookie header.
func NewJar(cookieHeader string) *Jar {
	j := &Jar{values: map[string]string{}}
	if cookieHeader == "" {
		return j
	}
	for _, c := range (&http.Request{Header: http.Header{"Cookie": {cookieHeader}}}).Cookies() {
		j.set(c.Name, c.Value)
	}
	return j
}

func (j *Jar) set(name, value string) {
	if _, ok := j.values[name]; !ok {
		j.names = append(j.names, name)
	}
	j.values[name] = value
}

// Drop forgets a cookie (for example a stale session before a new login).
func (j *Jar) Drop(name string) {
	delete(j.values, name)
	for i, n := range j.names {
		if n == name {
			j.names = append(j.names[:i], j.names[i+1:]...)
			break
		}
	}
}

// Header is the Cookie header to send.
func (j *Jar) Header() string {
	parts := make([]string, 0, len(j.names))
	for _, n := range j.names {
		parts = append(parts, n+"="+j.values[n])
	}
	return strings.Join(parts, "; ")
}

func (j *Jar) absorb(res *http.Response) {
	for _, raw := range res.Header.Values("Set-Cookie") {
		j.SetCookies = append(j.SetCookies, raw)
		if c, err := http.ParseSetCookie(raw); err == nil {
			if c.MaxAge < 0 || c.Value == "" {
				j.Drop(c.Name)
			} else {
				j.set(c.Name, c.Value)
			}
		}
	}
}

// SessionCookie is the Kratos session cookie name (deploy/kratos/kratos.yml).
const SessionCookie = "aporta_session"

// FlowError is a Kratos answer that is not success: its status and the message ids of the flow's UI.
type FlowError struct {
	Status   int
	Messages []FlowMessage
	Reason   string
}

// FlowMessage is one of Kratos's UI messages (ids: 4000006 invalid credentials, 4010003 invalid
// code, 4070006 code used or invalid, 4070005 flow expired…).
type FlowMessage struct {
	ID   int64  `json:"id"`
	Text string `json:"text"`
	Type string `json:"type"`
}

func (e *FlowError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kratos flow: status %d", e.Status)
	for _, m := range e.Messages {
		fmt.Fprintf(&b, "; %d %s", m.ID, m.Text)
	}
	if e.Reason != "" {
		b.WriteString("; " + e.Reason)
	}
	return b.String()
}

// HasMessage reports whether Kratos answered with one of the message ids.
func (e *FlowError) HasMessage(ids ...int64) bool {
	for _, m := range e.Messages {
		for _, id := range ids {
			if m.ID == id {
				return true
			}
		}
	}
	return false
}

// ErrFlowGone is returned when a flow expired or no longer exists (a new code is needed).
var ErrFlowGone = errors.New("identity: flow expired")

// flowJSON is the part of a Kratos flow the API reads.
type flowJSON struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	State string `json:"state"`
	UI    struct {
		Nodes []struct {
			Attributes struct {
				Name  string `json:"name"`
				Value any    `json:"value"`
				ID    string `json:"id"` // text nodes
				Text  struct {
					Text string `json:"text"`
				} `json:"text"`
			} `json:"attributes"`
			Messages []FlowMessage `json:"messages"`
		} `json:"nodes"`
		Messages []FlowMessage `json:"messages"`
	} `json:"ui"`
	Identity *struct {
		ID     string         `json:"id"`
		Traits map[string]any `json:"traits"`
	} `json:"identity"`
	ContinueWith []struct {
		Action string `json:"action"`
		Flow   struct {
			ID                string `json:"id"`
			VerifiableAddress string `json:"verifiable_address"`
		} `json:"flow"`
	} `json:"continue_with"`
	Session *struct {
		ID       string `json:"id"`
		Identity struct {
			ID string `json:"id"`
		} `json:"identity"`
	} `json:"session"`
	SessionToken string `json:"session_token"`
	Error        *struct {
		Code   int    `json:"code"`
		ID     string `json:"id"`
		Reason string `json:"reason"`
	} `json:"error"`
}

func (f *flowJSON) csrf() string {
	for _, n := range f.UI.Nodes {
		if n.Attributes.Name == "csrf_token" {
			s, _ := n.Attributes.Value.(string)
			return s
		}
	}
	return ""
}

func (f *flowJSON) messages() []FlowMessage {
	out := append([]FlowMessage{}, f.UI.Messages...)
	for _, n := range f.UI.Nodes {
		out = append(out, n.Messages...)
	}
	return out
}

// call sends one request to Kratos public and decodes its JSON answer into a flow. A non-2xx
// answer is a *FlowError (or ErrFlowGone for an expired or missing flow).
func (fl *Flows) call(ctx context.Context, jar *Jar, method, path string, body any) (*flowJSON, error) {
	return fl.callAs(ctx, jar, "", method, path, body)
}

// callAs is call for an API flow signed in with a session token (or a browser one with jar).
func (fl *Flows) callAs(ctx context.Context, jar *Jar, token, method, path string, body any) (*flowJSON, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, fl.public+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if jar != nil {
		if h := jar.Header(); h != "" {
			req.Header.Set("Cookie", h)
		}
	}
	if token != "" {
		req.Header.Set("X-Session-Token", token)
	}
	res, err := fl.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("kratos %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	if jar != nil {
		jar.absorb(res)
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	var f flowJSON
	_ = json.Unmarshal(raw, &f)
	if res.StatusCode/100 == 2 {
		return &f, nil
	}
	if res.StatusCode == http.StatusGone || res.StatusCode == http.StatusNotFound {
		return nil, ErrFlowGone
	}
	fe := &FlowError{Status: res.StatusCode, Messages: f.messages()}
	if f.Error != nil {
		fe.Reason = f.Error.ID + " " + f.Error.Reason
		if f.Error.ID == "self_service_flow_expired" {
			return nil, ErrFlowGone
		}
	}
	return nil, fe
}

// Login signs identifier/password in through a browser login flow run with the caller's cookies;
// the session cookie ends up in jar.SetCookies. It returns the identity id.
func (fl *Flows) Login(ctx context.Context, jar *Jar, identifier, password string) (uuid.UUID, error) {
	jar.Drop(SessionCookie) // a stale session would make Kratos refuse a new login flow
	f, err := fl.call(ctx, jar, http.MethodGet, "/self-service/login/browser", nil)
	if err != nil {
		return uuid.Nil, fmt.Errorf("login flow: %w", err)
	}
	done, err := fl.call(ctx, jar, http.MethodPost, "/self-service/login?flow="+url.QueryEscape(f.ID), map[string]any{
		"method": "password", "identifier": identifier, "password": password, "csrf_token": f.csrf(),
	})
	if err != nil {
		return uuid.Nil, err
	}
	if done.Session == nil {
		return uuid.Nil, errors.New("kratos login: no session in answer")
	}
	return uuid.Parse(done.Session.Identity.ID)
}

// CheckPassword reports whether the password is the identity's current one, with an API login flow
// whose session is revoked right away through the admin API.
func (fl *Flows) CheckPassword(ctx context.Context, admin *Kratos, identifier, password string) (bool, error) {
	f, err := fl.call(ctx, nil, http.MethodGet, "/self-service/login/api", nil)
	if err != nil {
		return false, err
	}
	done, err := fl.call(ctx, nil, http.MethodPost, "/self-service/login?flow="+url.QueryEscape(f.ID), map[string]any{
		"method": "password", "identifier": identifier, "password": password,
	})
	var fe *FlowError
	if errors.As(err, &fe) && fe.Status == http.StatusBadRequest {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if done.Session != nil {
		_, _ = admin.admin.IdentityAPI.DisableSession(ctx, done.Session.ID).Execute()
	}
	return true, nil
}

// EnrollTOTP signs identifier/password in through an API flow and adds an authenticator app
// (TOTP) to the identity through a settings flow, answering Kratos's challenge with a code computed
// from the secret Kratos generated. It returns the secret. The seeded staff account uses it in dev
// and test, where no person holds the phone.
func (fl *Flows) EnrollTOTP(ctx context.Context, admin *Kratos, identifier, password string) (string, error) {
	f, err := fl.call(ctx, nil, http.MethodGet, "/self-service/login/api", nil)
	if err != nil {
		return "", fmt.Errorf("login flow: %w", err)
	}
	done, err := fl.call(ctx, nil, http.MethodPost, "/self-service/login?flow="+url.QueryEscape(f.ID), map[string]any{
		"method": "password", "identifier": identifier, "password": password,
	})
	if err != nil {
		return "", fmt.Errorf("login: %w", err)
	}
	if done.Session != nil { // the session only serves the enrolment
		defer func() {
			_, _ = admin.admin.IdentityAPI.DisableSession(context.WithoutCancel(ctx), done.Session.ID).Execute()
		}()
	}
	sf, err := fl.callAs(ctx, nil, done.SessionToken, http.MethodGet, "/self-service/settings/api", nil)
	if err != nil {
		return "", fmt.Errorf("settings flow: %w", err)
	}
	var secret string
	for _, n := range sf.UI.Nodes {
		if n.Attributes.ID == "totp_secret_key" {
			secret = n.Attributes.Text.Text
		}
	}
	if secret == "" {
		return "", errors.New("kratos settings flow offers no TOTP secret (selfservice.methods.totp disabled, or already set up)")
	}
	code, err := TOTP(secret, time.Now())
	if err != nil {
		return "", err
	}
	if _, err := fl.callAs(ctx, nil, done.SessionToken, http.MethodPost, "/self-service/settings?flow="+url.QueryEscape(sf.ID), map[string]any{
		"method": "totp", "totp_code": code,
	}); err != nil {
		return "", fmt.Errorf("settings totp: %w", err)
	}
	return secret, nil
}

// SendPendingCodes submits the signed-in identity's unchanged traits through a settings flow: Kratos
// then sends a verification code to every address still "pending" (e-mail and SMS alike) and answers
// with one verification flow per address. It returns address → verification flow id.
func (fl *Flows) SendPendingCodes(ctx context.Context, jar *Jar) (map[string]uuid.UUID, error) {
	f, err := fl.call(ctx, jar, http.MethodGet, "/self-service/settings/browser", nil)
	if err != nil {
		return nil, fmt.Errorf("settings flow: %w", err)
	}
	if f.Identity == nil {
		return nil, errors.New("settings flow without identity")
	}
	done, err := fl.call(ctx, jar, http.MethodPost, "/self-service/settings?flow="+url.QueryEscape(f.ID), map[string]any{
		"method": "profile", "traits": f.Identity.Traits, "csrf_token": f.csrf(),
	})
	if err != nil {
		return nil, err
	}
	out := map[string]uuid.UUID{}
	for _, c := range done.ContinueWith {
		if c.Action != "show_verification_ui" {
			continue
		}
		if id, err := uuid.Parse(c.Flow.ID); err == nil {
			out[strings.ToLower(c.Flow.VerifiableAddress)] = id
		}
	}
	return out, nil
}

// SendEmailCode starts an API verification flow and asks Kratos to send a code to the e-mail
// address. It returns the flow to submit the code to.
func (fl *Flows) SendEmailCode(ctx context.Context, email string) (uuid.UUID, error) {
	f, err := fl.call(ctx, nil, http.MethodGet, "/self-service/verification/api", nil)
	if err != nil {
		return uuid.Nil, fmt.Errorf("verification flow: %w", err)
	}
	if _, err := fl.call(ctx, nil, http.MethodPost, "/self-service/verification?flow="+url.QueryEscape(f.ID), map[string]any{
		"method": "code", "email": email,
	}); err != nil {
		return uuid.Nil, err
	}
	return uuid.Parse(f.ID)
}

// ErrInvalidCode is returned when Kratos refuses a verification code.
var ErrInvalidCode = errors.New("identity: invalid code")

// SubmitVerificationCode posts a code to a verification flow (API or browser: the browser kind is
// submitted with the caller's cookies and the flow's CSRF token). It returns ErrInvalidCode for a
// wrong code and ErrFlowGone for an expired flow.
func (fl *Flows) SubmitVerificationCode(ctx context.Context, jar *Jar, flowID uuid.UUID, code string) error {
	f, err := fl.call(ctx, jar, http.MethodGet, "/self-service/verification/flows?id="+flowID.String(), nil)
	if err != nil {
		return err
	}
	body := map[string]any{"method": "code", "code": code}
	if f.Type == "browser" {
		body["csrf_token"] = f.csrf()
	}
	done, err := fl.call(ctx, jar, http.MethodPost, "/self-service/verification?flow="+flowID.String(), body)
	var fe *FlowError
	if errors.As(err, &fe) {
		if fe.HasMessage(4070005) {
			return ErrFlowGone
		}
		if fe.Status == http.StatusBadRequest {
			return ErrInvalidCode
		}
	}
	if err != nil {
		return err
	}
	if done.State != "passed_challenge" {
		for _, m := range done.messages() {
			if m.ID == 4070005 {
				return ErrFlowGone
			}
		}
		return ErrInvalidCode
	}
	return nil
}

// --- admin additions -----------------------------------------------------------------------------

// Identity is an identity as the admin API returns it, with its admin metadata.
type Identity struct {
	User
	State    string
	Metadata map[string]any
	Traits   map[string]any
}

// ErrNotFound is returned for an unknown identity.
var ErrNotFound = errors.New("identity: not found")

// Get reads an identity.
func (k *Kratos) Get(ctx context.Context, id uuid.UUID) (Identity, error) {
	i, res, err := k.admin.IdentityAPI.GetIdentity(ctx, id.String()).Execute()
	if res != nil && res.StatusCode == http.StatusNotFound {
		return Identity{}, ErrNotFound
	}
	if err != nil {
		return Identity{}, fmt.Errorf("kratos get identity: %w", err)
	}
	u, err := userOf(i)
	if err != nil {
		return Identity{}, err
	}
	out := Identity{User: u}
	if i.State != nil {
		out.State = *i.State
	}
	out.Metadata, _ = i.MetadataAdmin.(map[string]any)
	out.Traits, _ = i.Traits.(map[string]any)
	return out, nil
}

// CreateWithMetadata creates an identity (with a password when u.Password is set, its addresses
// verified when u.Verified) carrying admin metadata.
func (k *Kratos) CreateWithMetadata(ctx context.Context, u NewUser, metadata map[string]any) (uuid.UUID, error) {
	traits := map[string]any{
		"email": u.Email,
		"name":  map[string]any{"first": u.FirstName, "last": u.LastName},
	}
	if u.Phone != "" {
		traits["phone"] = u.Phone
	}
	if u.RoleArea != "" {
		traits["role_area"] = u.RoleArea
	}
	body := kratos.NewCreateIdentityBody(SchemaID, traits)
	if u.Password != "" {
		body.Credentials = &kratos.IdentityWithCredentials{Password: &kratos.IdentityWithCredentialsPassword{
			Config: &kratos.IdentityWithCredentialsPasswordConfig{Password: &u.Password},
		}}
	}
	if u.Verified {
		body.VerifiableAddresses = []kratos.VerifiableIdentityAddress{{Value: u.Email, Via: "email", Verified: true, Status: "completed"}}
		if u.Phone != "" {
			body.VerifiableAddresses = append(body.VerifiableAddresses,
				kratos.VerifiableIdentityAddress{Value: u.Phone, Via: "sms", Verified: true, Status: "completed"})
		}
	}
	if metadata != nil {
		body.MetadataAdmin = metadata
	}
	id, res, err := k.admin.IdentityAPI.CreateIdentity(ctx).CreateIdentityBody(*body).Execute()
	if res != nil && res.StatusCode == http.StatusConflict {
		return uuid.Nil, ErrExists
	}
	if err != nil {
		return uuid.Nil, fmt.Errorf("kratos create identity: %w", err)
	}
	return uuid.Parse(id.Id)
}

// Patch applies JSON-patch operations to an identity (traits, metadata).
func (k *Kratos) Patch(ctx context.Context, id uuid.UUID, ops ...kratos.JsonPatch) error {
	defer forgetIdentity(id) // the cached sessions (sessioncache.go) are stale now
	_, res, err := k.admin.IdentityAPI.PatchIdentity(ctx, id.String()).JsonPatch(ops).Execute()
	if res != nil && res.StatusCode == http.StatusConflict {
		return ErrExists
	}
	if err != nil {
		return fmt.Errorf("kratos patch identity: %w", err)
	}
	return nil
}

// SetTrait replaces (or adds) one trait, e.g. "/traits/phone".
func SetTrait(path string, value any) kratos.JsonPatch {
	return kratos.JsonPatch{Op: "add", Path: path, Value: value}
}

// RemoveTrait removes one trait.
func RemoveTrait(path string) kratos.JsonPatch {
	return kratos.JsonPatch{Op: "remove", Path: path}
}

// SetPassword replaces the identity's password credential.
func (k *Kratos) SetPassword(ctx context.Context, id uuid.UUID, password string) error {
	defer forgetIdentity(id) // the cached sessions (sessioncache.go) are stale now
	i, _, err := k.admin.IdentityAPI.GetIdentity(ctx, id.String()).Execute()
	if err != nil {
		return fmt.Errorf("kratos get identity: %w", err)
	}
	traits, _ := i.Traits.(map[string]any)
	body := kratos.NewUpdateIdentityBody(i.SchemaId, "active", traits)
	if i.State != nil {
		body.State = *i.State
	}
	body.MetadataAdmin = i.MetadataAdmin
	body.MetadataPublic = i.MetadataPublic
	body.Credentials = &kratos.IdentityWithCredentials{Password: &kratos.IdentityWithCredentialsPassword{
		Config: &kratos.IdentityWithCredentialsPasswordConfig{Password: &password},
	}}
	if _, _, err := k.admin.IdentityAPI.UpdateIdentity(ctx, id.String()).UpdateIdentityBody(*body).Execute(); err != nil {
		return fmt.Errorf("kratos update identity: %w", err)
	}
	return nil
}

// RevokeOtherSessions ends every session of an identity but keep (the one making the request).
func (k *Kratos) RevokeOtherSessions(ctx context.Context, id, keep uuid.UUID) error {
	defer forgetIdentity(id) // the cached sessions (sessioncache.go) are stale now
	sessions, res, err := k.admin.IdentityAPI.ListIdentitySessions(ctx, id.String()).Active(true).PageSize(1000).Execute()
	if res != nil && res.StatusCode == http.StatusNotFound {
		return nil
	}
	if err != nil {
		return fmt.Errorf("kratos list sessions: %w", err)
	}
	for _, s := range sessions {
		if s.Id == keep.String() {
			continue
		}
		if res, err := k.admin.IdentityAPI.DisableSession(ctx, s.Id).Execute(); err != nil && (res == nil || res.StatusCode != http.StatusNotFound) {
			return fmt.Errorf("kratos disable session: %w", err)
		}
	}
	return nil
}

// SetVerifiedEmail makes email the identity's e-mail (its login and recovery address) and records
// it as verified, in one update: the caller has just checked a code sent to it.
func (k *Kratos) SetVerifiedEmail(ctx context.Context, id uuid.UUID, email string) error {
	return k.Patch(ctx, id, SetTrait("/traits/email", email), kratos.JsonPatch{Op: "add", Path: "/verifiable_addresses/-", Value: map[string]any{
		"value": email, "via": "email", "verified": true, "status": "completed",
	}})
}

// TOTPSecret is the secret of the identity's authenticator app (TOTP), or ok=false when it has none.
func (k *Kratos) TOTPSecret(ctx context.Context, id uuid.UUID) (secret string, ok bool, err error) {
	i, _, err := k.admin.IdentityAPI.GetIdentity(ctx, id.String()).IncludeCredential([]string{"totp"}).Execute()
	if err != nil {
		return "", false, fmt.Errorf("kratos get identity: %w", err)
	}
	c, ok := i.GetCredentials()["totp"]
	if !ok {
		return "", false, nil
	}
	raw, _ := c.Config["totp_url"].(string)
	u, err := url.Parse(raw)
	if err != nil || u.Query().Get("secret") == "" {
		return "", false, fmt.Errorf("kratos totp credential without a secret")
	}
	return u.Query().Get("secret"), true, nil
}

// RevokeSessions ends every session of an identity.
func (k *Kratos) RevokeSessions(ctx context.Context, id uuid.UUID) error {
	defer forgetIdentity(id) // the cached sessions (sessioncache.go) are stale now
	res, err := k.admin.IdentityAPI.DeleteIdentitySessions(ctx, id.String()).Execute()
	if res != nil && res.StatusCode == http.StatusNotFound {
		return nil // no sessions
	}
	if err != nil {
		return fmt.Errorf("kratos revoke sessions: %w", err)
	}
	return nil
}

// Delete removes an identity (compensation of a failed invitation).
func (k *Kratos) Delete(ctx context.Context, id uuid.UUID) error {
	defer forgetIdentity(id) // the cached sessions (sessioncache.go) are stale now
	res, err := k.admin.IdentityAPI.DeleteIdentity(ctx, id.String()).Execute()
	if res != nil && res.StatusCode == http.StatusNotFound {
		return nil
	}
	return err
}
