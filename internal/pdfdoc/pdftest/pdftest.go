// Package pdftest reads a PDF's text back in tests, with pdftotext (Debian package poppler-utils,
// installed by deploy/install.sh), as a reader would see it.
package pdftest

import (
	"bytes"
	"os/exec"
	"testing"
)

// Text answers the PDF's text in reading order; the test fails when pdftotext cannot read it.
func Text(t testing.TB, pdf []byte) string {
	t.Helper()
	cmd := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("pdftotext: %v: %s", err, errOut.String())
	}
	return out.String()
}
