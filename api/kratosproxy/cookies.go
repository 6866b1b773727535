package kratosproxy

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/identity"
)

type jarKey struct{}

// Cookies is the middleware of endpoints that run Kratos's browser flows on the caller's behalf
// (sign in after signup, send or check a verification code): the request's cookies go into a jar
// in the context (Jar), and the Set-Cookie headers the flows answer with go back on the response,
// however the endpoint writes it.
func Cookies() gin.HandlerFunc {
	return func(c *gin.Context) {
		jar := identity.NewJar(c.GetHeader("Cookie"))
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), jarKey{}, jar))
		c.Writer = &cookieWriter{ResponseWriter: c.Writer, jar: jar}
		c.Next()
	}
}

// Jar is the request's cookie jar (an empty one outside Cookies).
func Jar(ctx context.Context) *identity.Jar {
	if j, ok := ctx.Value(jarKey{}).(*identity.Jar); ok {
		return j
	}
	return identity.NewJar("")
}

// cookieWriter adds the jar's Set-Cookie headers just before the response's headers go out.
type cookieWriter struct {
	gin.ResponseWriter
	jar *identity.Jar
}

func (w *cookieWriter) flush() {
	if w.Written() {
		return
	}
	for _, sc := range w.jar.SetCookies {
		w.Header().Add("Set-Cookie", sc)
	}
	w.jar.SetCookies = nil
}

func (w *cookieWriter) WriteHeaderNow() {
	w.flush()
	w.ResponseWriter.WriteHeaderNow()
}

func (w *cookieWriter) Write(b []byte) (int, error) {
	w.flush()
	return w.ResponseWriter.Write(b)
}

func (w *cookieWriter) WriteString(s string) (int, error) {
	w.flush()
	return w.ResponseWriter.WriteString(s)
}
