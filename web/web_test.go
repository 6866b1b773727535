package web

import (
	"strings"
	"testing"
)

// The server matches these as path prefixes and Vite strips the trailing slash: each must be a
// whole path segment.
func TestAPIPrefixesAreWholeSegments(t *testing.T) {
	p := APIPrefixes()
	if len(p) == 0 {
		t.Fatal("no API prefixes")
	}
	for _, s := range p {
		if !strings.HasPrefix(s, "/") || !strings.HasSuffix(s, "/") || len(s) < 3 {
			t.Errorf("prefix %q is not /segment/", s)
		}
	}
}
