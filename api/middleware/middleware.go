// Package middleware holds the Gin middleware every request goes through: request ids, structured
// access logs, recovery, language, body limits and CSRF.
package middleware

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/i18n"
)

// RequestID takes a well-formed incoming X-Request-Id or makes one, and echoes it in the response.
func RequestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader("X-Request-Id")
		if !validRequestID(id) {
			var b [12]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		c.Set(apierror.RequestIDKey, id)
		c.Header("X-Request-Id", id)
		c.Next()
	}
}

func validRequestID(id string) bool {
	if len(id) < 8 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// AccessLog logs one structured line per request. It logs the path without the query string and
// never a body or header value, so no token, card datum or personal data reaches the logs.
func AccessLog(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		status := c.Writer.Status()
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		log.LogAttrs(c.Request.Context(), level, "request",
			slog.String("request_id", c.GetString(apierror.RequestIDKey)),
			slog.String("method", c.Request.Method),
			slog.String("route", c.FullPath()),
			slog.String("path", c.Request.URL.Path),
			slog.Int("status", status),
			slog.Duration("duration", time.Since(start)),
			slog.Int("bytes", c.Writer.Size()),
		)
	}
}

// Recovery turns a panic into the generic internal error, logged with its request id.
func Recovery() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				apierror.Abort(c, apierror.Internal(fmt.Errorf("panic: %v", r)))
			}
		}()
		c.Next()
	}
}

// LocaleCookie remembers an explicit language choice.
const LocaleCookie = "aporta_locale"

// Locale sets the request's language: ?locale=, then the locale cookie, then Accept-Language.
func Locale() gin.HandlerFunc {
	return func(c *gin.Context) {
		cookie, _ := c.Cookie(LocaleCookie)
		lang := i18n.Negotiate([]string{c.Query("locale"), cookie}, c.GetHeader("Accept-Language"))
		c.Request = c.Request.WithContext(i18n.WithLang(c.Request.Context(), lang))
		c.Next()
	}
}

// BodyLimit caps request bodies; reading past the limit fails and request.JSON reports it.
// Upload routes use UploadLimit instead, with their own, larger, limit.
func BodyLimit(max int64) gin.HandlerFunc {
	return limit(max, func() *apierror.Error {
		return apierror.New(http.StatusRequestEntityTooLarge, "body_too_large", request.HumanBytes(max))
	})
}

// UploadLimit caps an upload route's bodies and refuses a declared oversize body with the route's
// own error (tooLarge: document.invalid_file for documents, §5), before reading it. A body that
// turns out longer fails while being read, and the route reports it the same way.
func UploadLimit(max int64, tooLarge func() *apierror.Error) gin.HandlerFunc {
	return limit(max, tooLarge)
}

func limit(max int64, tooLarge func() *apierror.Error) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.ContentLength > max {
			apierror.Abort(c, tooLarge())
			return
		}
		if c.Request.Body != http.NoBody { // nothing to cap on a request without a body
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, max)
		}
		c.Next()
	}
}
