// Package ratelimit caps how often one caller (an IP address, an identity) may hit an abuse-prone
// endpoint: the signup checks, registration, and sending or verifying one-time codes. Counters are
// fixed windows kept in memory per process; a refused call gets 429 too_many_requests with
// Retry-After.
package ratelimit

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
)

// Limiter allows Max events per Window and key.
type Limiter struct {
	Name   string
	Max    int
	Window time.Duration

	mu      sync.Mutex
	windows map[string]*window
	now     func() time.Time
	sweep   time.Time
}

type window struct {
	start time.Time
	count int
}

// New builds a limiter; name prefixes its keys in logs and errors only.
func New(name string, max int, per time.Duration) *Limiter {
	return &Limiter{Name: name, Max: max, Window: per, windows: map[string]*window{}, now: time.Now}
}

// Allow counts one event for key and reports whether it is within the limit, and if not, how long
// until the window resets.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.sweep) > l.Window {
		for k, w := range l.windows {
			if now.Sub(w.start) >= l.Window {
				delete(l.windows, k)
			}
		}
		l.sweep = now
	}
	w, ok := l.windows[key]
	if !ok || now.Sub(w.start) >= l.Window {
		w = &window{start: now}
		l.windows[key] = w
	}
	if w.count >= l.Max {
		return false, w.start.Add(l.Window).Sub(now)
	}
	w.count++
	return true, 0
}

// Reset forgets a key (tests, or after a successful verification).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	delete(l.windows, key)
	l.mu.Unlock()
}

// Error is the 429 answer, with Retry-After set on the response.
func Error(c *gin.Context, retry time.Duration) *apierror.Error {
	secs := int(retry.Seconds() + 0.999)
	if secs < 1 {
		secs = 1
	}
	c.Header("Retry-After", strconv.Itoa(secs))
	return apierror.New(http.StatusTooManyRequests, "too_many_requests")
}

// Check counts an event for key and aborts the request with 429 when over the limit; it reports
// whether the request may go on.
func (l *Limiter) Check(c *gin.Context, key string) bool {
	if ok, retry := l.Allow(l.Name + ":" + key); !ok {
		apierror.Abort(c, Error(c, retry))
		return false
	}
	return true
}

// PerIP is middleware limiting each client IP.
func (l *Limiter) PerIP() gin.HandlerFunc {
	return func(c *gin.Context) {
		if l.Check(c, c.ClientIP()) {
			c.Next()
		}
	}
}
