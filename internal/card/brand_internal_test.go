package card

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// DetectBrand picks the longest matching prefix, which is only well defined
// if ranges of the same length never overlap across brands.
func TestBinRangesDoNotOverlap(t *testing.T) {
	t.Parallel()
	for i, a := range bins {
		require.Len(t, a.hi, len(a.lo), a)
		require.LessOrEqual(t, a.lo, a.hi, a)
		for _, b := range bins[i+1:] {
			if len(a.lo) == len(b.lo) {
				overlap := a.lo <= b.hi && b.lo <= a.hi
				require.False(t, overlap, "%v overlaps %v", a, b)
			}
		}
	}
}

func TestEveryBrandHasLengths(t *testing.T) {
	t.Parallel()
	for _, r := range bins {
		require.NotEmpty(t, lengths[r.brand], r.brand)
	}
}

// A pattern is compiled once and its compiled form reused; one that does not compile fails every time.
func TestCompileKeepsEachPattern(t *testing.T) {
	t.Parallel()
	a, err := compile(`^4[0-9]{5}$`)
	require.NoError(t, err)
	b, err := compile(`^4[0-9]{5}$`)
	require.NoError(t, err)
	require.Same(t, a, b)
	require.True(t, b.MatchString("450995"))
	for range 2 {
		re, err := compile(`^(4`)
		require.Error(t, err)
		require.Nil(t, re)
	}
}
