// Package httpgzip reads whether an HTTP client takes gzip, for the handlers that compress their answers
// (the web app's assets, the sandboxes of outside services).
package httpgzip

import "strings"

// Accepted reads an Accept-Encoding header: gzip listed, without q=0.
func Accepted(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
