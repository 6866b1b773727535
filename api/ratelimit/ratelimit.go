// Package ratelimit caps how often one caller (an IP address, an identity, an e-mail or phone
// number) may hit an abuse-prone endpoint: the signup checks, registration, sign-in and recovery,
// and sending or verifying one-time codes. The counters live in the directory database so every
// `serve` process shares them: one atomic UPSERT per hit on one row per limiter and subject (a fixed
// window), with expired rows swept now and then. A refused call gets 429 too_many_requests with
// Retry-After.
//
// No maintained Go limiter ships a PostgreSQL store (the well-kept ones keep counters in memory or
// Redis, and a GCRA store for them would take several round trips per hit), so this is that store.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/dirdb"
)

// Store keeps the counters in the directory database.
type Store struct {
	db      *dirdb.Queries
	sweptAt atomic.Int64 // unix seconds of this process's last sweep
}

// sweepEvery is how often one process deletes expired rows.
const sweepEvery = time.Minute

// NewStore keeps counters in db (the directory).
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: dirdb.Store(db)} }

type storeKey struct{}

// Middleware makes the store reach every limiter through the request's context.
func (s *Store) Middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Request = c.Request.WithContext(WithStore(c.Request.Context(), s))
		c.Next()
	}
}

// WithStore returns ctx carrying the store (the middleware's job; tests and tools use it directly).
func WithStore(ctx context.Context, s *Store) context.Context {
	return context.WithValue(ctx, storeKey{}, s)
}

var errNoStore = errors.New("ratelimit: no store in the request context")

func storeOf(ctx context.Context) (*Store, error) {
	if s, ok := ctx.Value(storeKey{}).(*Store); ok {
		return s, nil
	}
	return nil, errNoStore
}

// sweep deletes expired rows, at most once a minute per process.
func (s *Store) sweep(ctx context.Context) {
	now := time.Now().Unix()
	last := s.sweptAt.Load()
	if now-last < int64(sweepEvery/time.Second) || !s.sweptAt.CompareAndSwap(last, now) {
		return
	}
	if err := s.db.SweepRateLimits(ctx); err != nil {
		slog.WarnContext(ctx, "rate limit sweep", "error", err)
	}
}

// rowKey names a limiter's row for one subject; the subject is hashed so the table holds no
// addresses in clear.
func rowKey(name, subject string) string {
	sum := sha256.Sum256([]byte(subject))
	return name + ":" + hex.EncodeToString(sum[:16])
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

// Limiter allows Max events per Window and key.
type Limiter struct {
	Name   string
	Max    int
	Window time.Duration
}

// New builds a limiter; name keeps its counters apart from other limiters'.
func New(name string, max int, per time.Duration) *Limiter {
	return &Limiter{Name: name, Max: max, Window: per}
}

// Allow counts one event for key and reports whether it is within the limit, and if not, how long
// until the window resets. ctx must carry the store (every request does, see Middleware).
func (l *Limiter) Allow(ctx context.Context, key string) (bool, time.Duration, error) {
	s, err := storeOf(ctx)
	if err != nil {
		return false, 0, err
	}
	s.sweep(ctx)
	hit, err := s.db.HitRateLimit(ctx, dirdb.HitRateLimitParams{Key: rowKey(l.Name, key), WindowSeconds: l.Window.Seconds()})
	if err != nil {
		return false, 0, err
	}
	if int(hit.Hits) > l.Max {
		return false, seconds(hit.SecondsLeft), nil
	}
	return true, 0, nil
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
	ok, retry, err := l.Allow(c.Request.Context(), key)
	switch {
	case err != nil:
		apierror.Abort(c, err)
	case !ok:
		apierror.Abort(c, Error(c, retry))
	}
	return err == nil && ok
}

// PerIP is middleware limiting each client IP (the socket's address unless it comes from one of
// APORTA_TRUSTED_PROXIES).
func (l *Limiter) PerIP() gin.HandlerFunc {
	return func(c *gin.Context) {
		if l.Check(c, c.ClientIP()) {
			c.Next()
		}
	}
}
