package export

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"
)

// FuzzCSVWriter writes one lead of any text and reads the file back as a spreadsheet would: a
// header and one row of five cells, no cell starting with = + - @ tab or carriage return, and
// every text cell is the lead's value, or that value behind the apostrophe that defuses it.
func FuzzCSVWriter(f *testing.F) {
	for _, s := range [][4]string{
		{"ana@example.org", "Ana", "Pérez", "Comedor Los Girasoles"},
		{"=HYPERLINK(\"http://x\",\"y\")@example.org", "+54 9 11", "-2+3", "@SUM(A1:A9)"},
		{"a@b.c", "\t=1+1", "\r=1+1", "\"quoted\", with comma"},
		{"a@b.c", "multi\nline", "crlf\r\nline", "'already"},
		{"", "", "", ""},
		{"a@b.c", "＝1+1", "\ufeff=1", "\x00\xff"},
	} {
		f.Add(s[0], s[1], s[2], s[3], int64(1732262400))
	}
	f.Add("a@b.c", "x", "y", "z", int64(-62135596800-400*86400)) // 1 BC, written as year -0001
	loc := time.FixedZone("ART", -3*3600)
	f.Fuzz(func(t *testing.T, email, first, last, campaign string, created int64) {
		var buf bytes.Buffer
		w, err := NewCSVWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		lead := Lead{Email: email, FirstName: first, LastName: last, Campaign: campaign, CreatedAt: time.Unix(created, 0)}
		if err := w.Write(lead, loc); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data, ok := bytes.CutPrefix(buf.Bytes(), []byte("\ufeff"))
		if !ok {
			t.Fatal("no byte order mark")
		}
		records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil || len(records) != 2 || len(records[1]) != len(Header) {
			t.Fatalf("%q reads back as %q, %v", data, records, err)
		}
		for i, cell := range records[1] {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Fatalf("cell %d %q starts with a formula character", i, cell)
			}
		}
		for i, in := range []string{email, first, last, campaign} {
			// A CSV reader turns a quoted CRLF into LF; that is the format, not the escaping.
			in = strings.ReplaceAll(in, "\r\n", "\n")
			got := records[1][i]
			if got != in && got != "'"+in {
				t.Fatalf("cell %d: wrote %q, read %q", i, in, got)
			}
		}
	})
}
