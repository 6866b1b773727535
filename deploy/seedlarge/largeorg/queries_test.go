package largeorg

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

func TestLoadQueries(t *testing.T) {
	t.Parallel()
	q, err := LoadQueries(fstest.MapFS{
		"a.sql": {Data: []byte("-- name: One\nSELECT 1;\n\n-- name: Two\n-- a comment kept with the query\nSELECT 2;\n")},
	})
	require.NoError(t, err)
	require.Equal(t, "SELECT 1;", q.Get("One"))
	require.Equal(t, "-- a comment kept with the query\nSELECT 2;", q.Get("Two"))
	require.Panics(t, func() { q.Get("Three") })

	_, err = LoadQueries(fstest.MapFS{
		"a.sql": {Data: []byte("-- name: One\nSELECT 1;\n")},
		"b.sql": {Data: []byte("-- name: One\nSELECT 2;\n")},
	})
	require.ErrorContains(t, err, `query "One" defined twice`)
}
