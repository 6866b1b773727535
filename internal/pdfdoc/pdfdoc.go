// Package pdfdoc builds the small one-page documents Aporta hands out as PDF (subscription invoices;
// donor receipts next): a title, label/value rows, notes. Text is UTF-8 in DejaVu Sans, embedded in
// the file, so accents and the peso sign render in every reader; the font comes from the Debian
// package fonts-dejavu-core (deploy/install.sh installs it).
package pdfdoc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-pdf/fpdf"
)

// FontDir holds DejaVuSans.ttf and DejaVuSans-Bold.ttf.
var FontDir = "/usr/share/fonts/truetype/dejavu"

var fonts struct {
	once          sync.Once
	regular, bold []byte
	err           error
}

func loadFonts() ([]byte, []byte, error) {
	fonts.once.Do(func() {
		read := func(name string) []byte {
			if fonts.err != nil {
				return nil
			}
			b, err := os.ReadFile(filepath.Join(FontDir, name))
			if err != nil {
				fonts.err = fmt.Errorf("pdfdoc: font %s (install fonts-dejavu-core): %w", name, err)
			}
			return b
		}
		fonts.regular, fonts.bold = read("DejaVuSans.ttf"), read("DejaVuSans-Bold.ttf")
	})
	return fonts.regular, fonts.bold, fonts.err
}

const family = "DejaVu"

// Doc is one A4 document being written top to bottom.
type Doc struct {
	pdf *fpdf.Fpdf
}

// New starts a document; title is its metadata title and its heading; created is the file's creation
// date (the document's own date, not the time it was rendered).
func New(title string, created time.Time) (*Doc, error) {
	regular, bold, err := loadFonts()
	if err != nil {
		return nil, err
	}
	p := fpdf.New("P", "mm", "A4", "")
	p.AddUTF8FontFromBytes(family, "", regular)
	p.AddUTF8FontFromBytes(family, "B", bold)
	p.SetTitle(title, true)
	p.SetCreator("Aporta", true)
	p.SetCreationDate(created)
	p.SetModificationDate(created)
	p.SetMargins(20, 20, 20)
	p.SetAutoPageBreak(true, 20)
	p.AddPage()
	p.SetFont(family, "B", 18)
	p.MultiCell(0, 9, title, "", "L", false)
	p.Ln(4)
	return &Doc{pdf: p}, p.Error()
}

// Section starts a block with a bold heading and a rule under it.
func (d *Doc) Section(heading string) {
	d.pdf.Ln(3)
	d.pdf.SetFont(family, "B", 12)
	d.pdf.MultiCell(0, 7, heading, "B", "L", false)
	d.pdf.Ln(2)
}

// Row writes one label and its value; an empty value writes nothing.
func (d *Doc) Row(label, value string) {
	if value == "" {
		return
	}
	d.pdf.SetFont(family, "B", 10)
	d.pdf.CellFormat(55, 6, label, "", 0, "L", false, 0, "")
	d.pdf.SetFont(family, "", 10)
	d.pdf.MultiCell(0, 6, value, "", "L", false)
}

// Note writes a paragraph in small type.
func (d *Doc) Note(text string) {
	d.pdf.Ln(2)
	d.pdf.SetFont(family, "", 9)
	d.pdf.MultiCell(0, 5, text, "", "L", false)
}

// Bytes finishes the document.
func (d *Doc) Bytes() ([]byte, error) {
	var b bytes.Buffer
	if err := d.pdf.Output(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
