package identity

import (
	"crypto/sha256"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
)

// CacheTTL is how long this process answers a session cookie, or a permission Keto granted, from what Kratos or
// Keto said of it, without asking again (issue 19: those two calls were most of a manage request's cost). What
// this process changes is seen at once: every call through the Kratos proxy with the cookie (sign-out, settings,
// verification) forgets the session, every identity change or revocation made here (Kratos's admin methods)
// forgets the identity's sessions, and every Keto write made here forgets every permission. A change made
// elsewhere (another replica, Kratos's own expiry) is seen within CacheTTL.
const CacheTTL = 5 * time.Second

// cacheMax bounds each cache: past it, answers are used without being kept.
const cacheMax = 10_000

// The process's caches: the Kratos and Keto clients (one per handler) and the session resolver share them.
var (
	sessions = newCache[[32]byte, User]()
	permits  = newCache[permitKey, struct{}]()
)

// permitKey is one Keto check.
type permitKey struct{ namespace, object, permit, user string }

type cached[V any] struct {
	v     V
	until time.Time
}

// cache is a map with expiring entries. gen counts forgets: a lookup that overlapped one (a sign-out or a
// revocation while Kratos or Keto answered) does not store what it read.
type cache[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]cached[V]
	gen     uint64
}

func newCache[K comparable, V any]() *cache[K, V] { return &cache[K, V]{entries: map[K]cached[V]{}} }

// get answers the live entry of key, and the generation to hand to put after asking the source.
func (c *cache[K, V]) get(key K, now time.Time) (v V, gen uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, found := c.entries[key]
	if found && now.Before(e.until) {
		return e.v, c.gen, true
	}
	if found {
		delete(c.entries, key)
	}
	return v, c.gen, false
}

// put keeps v until until, unless something was forgotten since gen was read.
func (c *cache[K, V]) put(key K, v V, until time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.entries) >= cacheMax {
		now := time.Now()
		for k, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= cacheMax {
			return
		}
	}
	c.entries[key] = cached[V]{v: v, until: until}
}

// forget drops the entries match picks (all of them for a nil match).
func (c *cache[K, V]) forget(match func(K, V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for k, e := range c.entries {
		if match == nil || match(k, e.v) {
			delete(c.entries, k)
		}
	}
}

// sessionKey is the session cache's key of a Cookie header: the hash of its session cookie, ok=false without one.
func sessionKey(cookieHeader string) (key [32]byte, ok bool) {
	r := http.Request{Header: http.Header{"Cookie": {cookieHeader}}}
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return key, false
	}
	return sha256.Sum256([]byte(c.Value)), true
}

// ForgetSession drops what this process knows of the session in a Cookie header: the Kratos proxy calls it
// after every call it forwards, so a sign-out or a settings change is seen by the next request.
func ForgetSession(cookieHeader string) {
	if key, ok := sessionKey(cookieHeader); ok {
		sessions.forget(func(k [32]byte, _ User) bool { return k == key })
	}
}

// forgetIdentity drops every cached session of an identity (its traits, addresses or sessions changed).
func forgetIdentity(id uuid.UUID) {
	sessions.forget(func(_ [32]byte, u User) bool { return u.ID == id })
}

// forgetPermits drops every cached permission: a relation changed, and through subject sets it may be any.
func forgetPermits() { permits.forget(nil) }
