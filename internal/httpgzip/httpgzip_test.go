package httpgzip

import "testing"

func TestAccepted(t *testing.T) {
	for header, want := range map[string]bool{
		"":                       false,
		"gzip":                   true,
		"gzip, deflate, br":      true,
		"br;q=1.0, GZIP;q=0.5":   true,
		"deflate, gzip;q=0":      false,
		"gzip; q=0.000":          false,
		"identity, x-gzip-other": false,
	} {
		if got := Accepted(header); got != want {
			t.Errorf("Accepted(%q) = %v, want %v", header, got, want)
		}
	}
}
