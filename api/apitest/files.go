package apitest

import (
	"archive/zip"
	"bytes"
)

// Small valid files of each kind the upload routes accept, and a Windows executable.
var (
	PDF  = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
	PNG  = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)
	JPEG = append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F'}, make([]byte, 64)...)
	GIF  = append([]byte("GIF89a"), make([]byte, 64)...)
	DOC  = append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 504)...)
	EXE  = append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"), make([]byte, 256)...)
	DOCX = func() []byte {
		var b bytes.Buffer
		z := zip.NewWriter(&b)
		for _, name := range []string{"[Content_Types].xml", "word/document.xml"} {
			w, _ := z.Create(name)
			_, _ = w.Write([]byte("<?xml version=\"1.0\"?><x/>"))
		}
		_ = z.Close()
		return b.Bytes()
	}()
	// ZIP is a zip archive that is not a Word document.
	ZIP = func() []byte {
		var b bytes.Buffer
		z := zip.NewWriter(&b)
		w, _ := z.Create("notes.txt")
		_, _ = w.Write([]byte("hola"))
		_ = z.Close()
		return b.Bytes()
	}()
)
