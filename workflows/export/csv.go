package export

import (
	"encoding/csv"
	"io"
	"strings"
	"time"
)

// Header is the leads CSV's first row.
var Header = []string{"email", "first_name", "last_name", "campaign", "created_at"}

// Lead is one CSV row.
type Lead struct {
	Email, FirstName, LastName, Campaign string
	CreatedAt                            time.Time
}

// SafeCell defuses spreadsheet formulas: a cell starting with = + - @ (or a tab or carriage
// return, which some spreadsheets strip before evaluating) is prefixed with an apostrophe.
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSVWriter writes leads as RFC 4180 CSV with a UTF-8 byte order mark (spreadsheets then read
// accents right).
type CSVWriter struct {
	w *csv.Writer
}

// NewCSVWriter writes the byte order mark and the header.
func NewCSVWriter(out io.Writer) (*CSVWriter, error) {
	if _, err := io.WriteString(out, "\ufeff"); err != nil {
		return nil, err
	}
	w := csv.NewWriter(out)
	if err := w.Write(Header); err != nil {
		return nil, err
	}
	return &CSVWriter{w: w}, nil
}

// Write adds one lead; created_at is RFC 3339 in loc. Every cell is defused, the date too: a year
// before 1 is written "-0001-…".
func (c *CSVWriter) Write(l Lead, loc *time.Location) error {
	row := []string{l.Email, l.FirstName, l.LastName, l.Campaign, l.CreatedAt.In(loc).Format(time.RFC3339)}
	for i := range row {
		row[i] = SafeCell(row[i])
	}
	return c.w.Write(row)
}

// Close flushes.
func (c *CSVWriter) Close() error {
	c.w.Flush()
	return c.w.Error()
}
