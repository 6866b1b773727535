package ratelimit

import (
	"context"
	"errors"
	"time"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
)

// Backoff slows down guessing for one subject (an e-mail signing in): after Free failures, each
// further failure doubles the wait before the next try, from Base up to Max. A success forgets the
// failures, and so does Forget of quiet time.
type Backoff struct {
	Name      string
	Free      int
	Base, Max time.Duration
	Forget    time.Duration
}

// wait is the pause imposed after n consecutive failures.
func (b *Backoff) wait(n int) time.Duration {
	if n <= b.Free {
		return 0
	}
	d := b.Base
	for i := b.Free + 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Wait reports how long key must still wait before its next try (0: it may try now).
func (b *Backoff) Wait(ctx context.Context, key string) (time.Duration, error) {
	s, err := storeOf(ctx)
	if err != nil {
		return 0, err
	}
	f, err := s.db.RateLimitFailures(ctx, rowKey(b.Name, key))
	if errors.Is(err, dberr.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return max(b.wait(int(f.Hits))-seconds(f.SecondsSince), 0), nil
}

// Fail records one failure for key and returns the wait it now imposes.
func (b *Backoff) Fail(ctx context.Context, key string) (time.Duration, error) {
	s, err := storeOf(ctx)
	if err != nil {
		return 0, err
	}
	n, err := s.db.FailRateLimit(ctx, dirdb.FailRateLimitParams{Key: rowKey(b.Name, key), ForgetSeconds: b.Forget.Seconds()})
	if err != nil {
		return 0, err
	}
	return b.wait(int(n)), nil
}

// Succeed forgets key's failures.
func (b *Backoff) Succeed(ctx context.Context, key string) error {
	s, err := storeOf(ctx)
	if err != nil {
		return err
	}
	return s.db.ForgetRateLimit(ctx, rowKey(b.Name, key))
}
