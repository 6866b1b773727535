package ratelimit

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
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
	var n int
	var since float64
	err = s.db.QueryRow(ctx, queries.Get("Failures"), rowKey(b.Name, key)).Scan(&n, &since)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return max(b.wait(n)-seconds(since), 0), nil
}

// Fail records one failure for key and returns the wait it now imposes.
func (b *Backoff) Fail(ctx context.Context, key string) (time.Duration, error) {
	s, err := storeOf(ctx)
	if err != nil {
		return 0, err
	}
	var n int
	if err := s.db.QueryRow(ctx, queries.Get("Fail"), rowKey(b.Name, key), b.Forget.Seconds()).Scan(&n); err != nil {
		return 0, err
	}
	return b.wait(n), nil
}

// Succeed forgets key's failures.
func (b *Backoff) Succeed(ctx context.Context, key string) error {
	s, err := storeOf(ctx)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, queries.Get("Forget"), rowKey(b.Name, key))
	return err
}
