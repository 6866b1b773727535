package gateway_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway"
)

// A value is read once while it is fresh and again after; a failed read is not kept.
func TestCachedKeepsValuesNotErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reads := 0
	read := func(context.Context) (int, error) { reads++; return reads, nil }
	fail := func(context.Context) (int, error) { reads++; return 0, errors.New("down") }

	var c gateway.Cached[int]
	_, err := c.Get(ctx, time.Hour, fail)
	require.Error(t, err)
	v, err := c.Get(ctx, time.Hour, read)
	require.NoError(t, err)
	require.Equal(t, 2, v, "after a failure the next call reads again")
	v, _ = c.Get(ctx, time.Hour, read)
	require.Equal(t, 2, v, "a fresh value is kept")
	require.Equal(t, 2, reads)

	var expired gateway.Cached[int]
	_, _ = expired.Get(ctx, 0, read)
	v, _ = expired.Get(ctx, 0, read)
	require.Equal(t, 4, v, "an expired value is read again")
}
