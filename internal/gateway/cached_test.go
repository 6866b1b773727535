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
	reads := 0
	read := func(context.Context) (int, error) { reads++; return reads, nil }
	get := func(c *gateway.Cached[int], ttl time.Duration) int {
		v, err := c.Get(context.Background(), ttl, read)
		require.NoError(t, err)
		return v
	}

	var c gateway.Cached[int]
	_, err := c.Get(context.Background(), time.Hour, func(context.Context) (int, error) { return 0, errors.New("down") })
	require.Error(t, err)
	require.Equal(t, 1, get(&c, time.Hour), "after a failure the next call reads")
	require.Equal(t, 1, get(&c, time.Hour), "a fresh value is kept")

	var expired gateway.Cached[int]
	get(&expired, 0)
	require.Equal(t, 3, get(&expired, 0), "an expired value is read again")
}
