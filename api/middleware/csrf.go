package middleware

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
)

// CSRF protects cookie-authenticated mutating calls with a signed double-submit token: the token
// lives in an HttpOnly cookie and in the page (<meta name="csrf-token">), and a mutating call must
// echo it in X-CSRF-Token. Another site can make the browser send the cookie but cannot read the page.
type CSRF struct {
	secret []byte
	secure bool
}

const (
	csrfCookie = "aporta_csrf"
	// CSRFHeader is the header the web app copies the page's token into.
	CSRFHeader = "X-CSRF-Token"
)

// NewCSRF builds the CSRF guard; secure marks the cookie Secure (production behind HTTPS).
func NewCSRF(secret []byte, secure bool) *CSRF { return &CSRF{secret: secret, secure: secure} }

// Token returns the request's valid token, issuing a new cookie when it has none.
func (x *CSRF) Token(c *gin.Context) string {
	if t, err := c.Cookie(csrfCookie); err == nil && x.valid(t) {
		return t
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	nonce := hex.EncodeToString(b[:])
	t := nonce + "." + x.sign(nonce)
	http.SetCookie(c.Writer, &http.Cookie{
		Name: csrfCookie, Value: t, Path: "/", HttpOnly: true, Secure: x.secure, SameSite: http.SameSiteLaxMode,
	})
	return t
}

// Require refuses mutating requests whose header does not match the cookie.
func (x *CSRF) Require() gin.HandlerFunc {
	return x.require(func(c *gin.Context) string { return c.GetHeader(CSRFHeader) })
}

// CSRFFormField is the form field a plain HTML form post carries the page's token in.
const CSRFFormField = "authenticity_token"

// RequireForm is Require for a plain HTML form post (a redirect flow the browser must navigate,
// so no script can add the header): the page's token comes in the authenticity_token field.
func (x *CSRF) RequireForm() gin.HandlerFunc {
	return x.require(func(c *gin.Context) string { return c.PostForm(CSRFFormField) })
}

// require refuses mutating requests whose echoed token does not match the cookie.
func (x *CSRF) require(echoed func(*gin.Context) string) gin.HandlerFunc {
	return func(c *gin.Context) {
		switch c.Request.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			c.Next()
			return
		}
		cookie, err := c.Cookie(csrfCookie)
		token := echoed(c)
		if err != nil || token == "" || !x.valid(cookie) || !hmac.Equal([]byte(cookie), []byte(token)) {
			apierror.Abort(c, apierror.New(http.StatusForbidden, "csrf_invalid"))
			return
		}
		c.Next()
	}
}

func (x *CSRF) sign(nonce string) string {
	m := hmac.New(sha256.New, x.secret)
	m.Write([]byte("csrf:" + nonce))
	return hex.EncodeToString(m.Sum(nil))
}

func (x *CSRF) valid(token string) bool {
	nonce, sig, ok := strings.Cut(token, ".")
	return ok && len(nonce) == 32 && hmac.Equal([]byte(sig), []byte(x.sign(nonce)))
}
