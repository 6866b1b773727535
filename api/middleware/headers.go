package middleware

import (
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
)

// noReferrerPrefixes are the pages and APIs whose URLs carry signed links or codes: the donation
// pages (thank-you receipt and convert-to-monthly links, one single-page document), their public
// API, export downloads and the account pages that open invitation, recovery and verification
// links. Their URL must not leak to another site through the Referer header.
var noReferrerPrefixes = []string{"/d/", "/api/public/", "/api/exports/", "/account/"}

// SecurityHeaders sets the browser protections on every response. gatewayPublicURL is the gateway's
// tokeniser (APORTA_GATEWAY_PUBLIC_URL): the donation form and the card forms of the manage area
// post card data there straight from the browser (fetch, no script or frame of the gateway's), so
// its origin is the only other one the policy allows. hsts is for production only: dev and test
// stacks run on plain http. oauthAuthURL is the gateway's authorization page (APORTA_MP_AUTH_URL): the
// form post to /auth/mercadopago is answered with a redirect there, and browsers hold a form's
// redirects to form-action too.
func SecurityHeaders(tokenizerURLs []string, oauthAuthURL string, hsts bool) gin.HandlerFunc {
	csp := ContentSecurityPolicy(tokenizerURLs, oauthAuthURL)
	donate := DonationPagePolicy(tokenizerURLs, oauthAuthURL)
	return func(c *gin.Context) {
		h := c.Writer.Header()
		if strings.HasPrefix(c.Request.URL.Path, "/d/") {
			h.Set("Content-Security-Policy", donate)
		} else {
			h.Set("Content-Security-Policy", csp)
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY") // frame-ancestors for browsers without CSP level 2
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		referrer := "strict-origin-when-cross-origin"
		for _, p := range noReferrerPrefixes {
			if strings.HasPrefix(c.Request.URL.Path, p) {
				referrer = "no-referrer"
				break
			}
		}
		h.Set("Referrer-Policy", referrer)
		if hsts {
			h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
		}
		c.Next()
	}
}

// ContentSecurityPolicy is the policy of the web app and the donation page: scripts only from
// Aporta's origin (no inline script), inline styles (Mantine writes its theme variables in a
// style element), images also from data: and blob: URLs (QR codes, upload previews), fetches to
// Aporta and the gateways' tokenisers, form posts to Aporta (and on to the gateway's authorization
// page), and never inside another site's frame.
func ContentSecurityPolicy(tokenizerURLs []string, oauthAuthURL string) string {
	authPage, gateway := origin(oauthAuthURL), ""
	for _, u := range tokenizerURLs {
		if o := origin(u); !strings.Contains(gateway+" ", o+" ") {
			gateway += o
		}
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"font-src 'self' data:",
		"connect-src 'self'" + gateway,
		"frame-src 'none'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'" + authPage,
		"frame-ancestors 'none'",
	}, "; ")
}

// The analytics a campaign may load on its donation page once the donor consents
// (web/src/donate/Consent.tsx): Google Analytics and Tag Manager, and Meta's pixel.
const (
	analyticsScripts = " https://www.googletagmanager.com https://connect.facebook.net"
	analyticsConnect = " https://www.googletagmanager.com https://www.google-analytics.com https://*.google-analytics.com" +
		" https://*.analytics.google.com https://www.facebook.com"
	analyticsImages = " https://www.googletagmanager.com https://www.google-analytics.com https://www.facebook.com"
)

// DonationPagePolicy is ContentSecurityPolicy for the donation page (/d/…), which alone may load a
// campaign's analytics: their script, beacon and pixel origins, and nothing else more.
func DonationPagePolicy(tokenizerURLs []string, oauthAuthURL string) string {
	p := ContentSecurityPolicy(tokenizerURLs, oauthAuthURL)
	p = strings.Replace(p, "script-src 'self'", "script-src 'self'"+analyticsScripts, 1)
	p = strings.Replace(p, "img-src 'self' data: blob:", "img-src 'self' data: blob:"+analyticsImages, 1)
	return strings.Replace(p, "connect-src 'self'", "connect-src 'self'"+analyticsConnect, 1)
}

// origin is " scheme://host" of an absolute URL, for a source list; nothing for anything else.
func origin(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" && u.Host != "" {
		return " " + u.Scheme + "://" + u.Host
	}
	return ""
}
