package gateway

import (
	"context"
	"sync"
	"time"
)

// Cached keeps the last value an account read from its gateway (card brands, amount limits) for a
// while: donation forms ask on every load, and gateways change them rarely. Errors are not kept, so
// a caller's fallback applies only while the gateway fails. The zero value is empty.
type Cached[T any] struct {
	mu      sync.Mutex
	value   T
	expires time.Time
}

// Get answers the kept value until ttl after it was read, and otherwise reads it again (one reader
// at a time).
func (c *Cached[T]) Get(ctx context.Context, ttl time.Duration, read func(context.Context) (T, error)) (T, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Now().Before(c.expires) {
		return c.value, nil
	}
	v, err := read(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	c.value, c.expires = v, time.Now().Add(ttl)
	return v, nil
}
