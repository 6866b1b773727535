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
