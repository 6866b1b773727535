package ratelimit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// process is one `serve` process's view of the counters: its own pool, its own store.
func process(t *testing.T) context.Context {
	return ratelimit.WithStore(context.Background(), ratelimit.NewStore(tenantstest.Open(t).Directory()))
}

func TestTwoServeProcessesShareOneCount(t *testing.T) {
	a, b := process(t), process(t)
	l := ratelimit.New("test_"+uuid.NewString()[:8], 3, time.Minute)
	for i, ctx := range []context.Context{a, b, a} {
		ok, _, err := l.Allow(ctx, "203.0.113.7")
		require.NoError(t, err)
		require.True(t, ok, "hit %d", i+1)
	}
	for _, ctx := range []context.Context{b, a} {
		ok, retry, err := l.Allow(ctx, "203.0.113.7")
		require.NoError(t, err)
		require.False(t, ok, "a fourth hit, on either process, is over the limit")
		require.InDelta(t, time.Minute.Seconds(), retry.Seconds(), 5)
	}
	ok, _, err := l.Allow(b, "203.0.113.8")
	require.NoError(t, err)
	require.True(t, ok, "another key has its own count")
}

func TestWindowRestartsAndExpiredRowsAreSwept(t *testing.T) {
	ctx := process(t)
	db := tenantstest.Open(t).Directory()
	name := "test_" + uuid.NewString()[:8]
	l := ratelimit.New(name, 1, time.Second)
	ok, _, err := l.Allow(ctx, "k")
	require.NoError(t, err)
	require.True(t, ok)
	ok, _, _ = l.Allow(ctx, "k")
	require.False(t, ok)
	time.Sleep(1100 * time.Millisecond)
	ok, _, _ = l.Allow(ctx, "k")
	require.True(t, ok, "a new window")

	time.Sleep(1100 * time.Millisecond)
	_, _, err = ratelimit.New("other", 1, time.Minute).Allow(process(t), uuid.NewString()) // a fresh process sweeps
	require.NoError(t, err)
	var rows int
	require.NoError(t, db.QueryRow(context.Background(), "SELECT count(*) FROM rate_limits WHERE key LIKE $1", name+":%").Scan(&rows))
	require.Zero(t, rows, "expired rows are deleted, so the table does not grow without bound")
}

func TestBackoffDoublesTheWaitAfterFreeFailures(t *testing.T) {
	ctx := process(t)
	b := &ratelimit.Backoff{Name: "test_" + uuid.NewString()[:8], Free: 2, Base: time.Second, Max: 4 * time.Second, Forget: time.Hour}
	var waits []time.Duration
	for range 6 {
		w, err := b.Fail(ctx, "someone@example.org")
		require.NoError(t, err)
		waits = append(waits, w)
	}
	require.Equal(t, []time.Duration{0, 0, time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second}, waits)
	w, err := b.Wait(ctx, "someone@example.org")
	require.NoError(t, err)
	require.InDelta(t, 4, w.Seconds(), 1)
	w, _ = b.Wait(ctx, "other@example.org")
	require.Zero(t, w)
	require.NoError(t, b.Succeed(ctx, "someone@example.org"))
	w, _ = b.Wait(ctx, "someone@example.org")
	require.Zero(t, w, "a success forgets the failures")
}

func TestCodesPerAddressAndPhoneCappedPerDay(t *testing.T) {
	ctx := process(t)
	for _, tc := range []struct {
		addr string
		cap  int
	}{
		{uuid.NewString()[:8] + "@Example.org", 10},
		{fmt.Sprintf("+54911%08d", time.Now().UnixNano()%1e8), 5},
	} {
		for i := range tc.cap {
			ok, _, err := ratelimit.CodeTo(ctx, tc.addr)
			require.NoError(t, err)
			require.True(t, ok, "%s: code %d", tc.addr, i+1)
		}
		ok, retry, err := ratelimit.CodeTo(ctx, " "+tc.addr+" ")
		require.NoError(t, err)
		require.False(t, ok, "%s: one code more than the daily cap", tc.addr)
		require.Greater(t, retry, 23*time.Hour)
	}
}

func TestLimiterWithoutStoreFails(t *testing.T) {
	_, _, err := ratelimit.New("x", 1, time.Minute).Allow(context.Background(), "k")
	require.Error(t, err)
}
