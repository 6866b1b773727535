package requestonce

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

type key struct{ n int }

func TestReadOncePerRequest(t *testing.T) {
	reads := 0
	read := func() (string, error) { reads++; return "row", nil }

	ctx := Start(context.Background())
	for range 3 {
		v, err := Read(ctx, key{1}, read)
		require.NoError(t, err)
		require.Equal(t, "row", v)
	}
	require.Equal(t, 1, reads, "one read per key within a request")
	_, _ = Read(ctx, key{2}, read)
	require.Equal(t, 2, reads, "another key is read on its own")
	_, _ = Read(Start(ctx), key{1}, read)
	require.Equal(t, 2, reads, "Start on a started request keeps its table")

	_, _ = Read(context.Background(), key{1}, read)
	_, _ = Read(context.Background(), key{1}, read)
	require.Equal(t, 4, reads, "outside a request every call reads")
	_, _ = Read(Start(context.Background()), key{1}, read)
	require.Equal(t, 5, reads, "another request reads again")
}

func TestFailedReadIsNotKept(t *testing.T) {
	ctx := Start(context.Background())
	fail := errors.New("shard down")
	_, err := Read(ctx, key{1}, func() (int, error) { return 0, fail })
	require.ErrorIs(t, err, fail)
	v, err := Read(ctx, key{1}, func() (int, error) { return 7, nil })
	require.NoError(t, err)
	require.Equal(t, 7, v)
}

func TestKeepAnswersWithoutReading(t *testing.T) {
	reads := 0
	read := func() (string, error) { reads++; return "read", nil }
	ctx := Start(context.Background())
	Keep(ctx, key{1}, "kept")
	v, err := Read(ctx, key{1}, read)
	require.NoError(t, err)
	require.Equal(t, "kept", v)
	require.Zero(t, reads, "a kept value is not read")

	Keep(context.Background(), key{1}, "kept")
	v, _ = Read(context.Background(), key{1}, read)
	require.Equal(t, "read", v, "outside a request nothing is kept")
}
