package document

import (
	"archive/zip"
	"bytes"
	"io"
	"path/filepath"
	"strings"
)

// Kinds of file a document may be. A file is accepted only when its name's extension and its
// content (magic bytes, and for .docx the ZIP's word/ part) name the same kind.
const (
	KindPNG  = "png"
	KindJPEG = "jpeg"
	KindGIF  = "gif"
	KindPDF  = "pdf"
	KindDOC  = "doc"
	KindDOCX = "docx"
)

// ContentTypes are the media types files are served back with.
var ContentTypes = map[string]string{
	KindPNG:  "image/png",
	KindJPEG: "image/jpeg",
	KindGIF:  "image/gif",
	KindPDF:  "application/pdf",
	KindDOC:  "application/msword",
	KindDOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}

// DocumentExtensions maps the allowed document extensions (§5: png, jpeg, jpg, pdf, doc, docx).
var DocumentExtensions = map[string]string{
	".png": KindPNG, ".jpeg": KindJPEG, ".jpg": KindJPEG, ".pdf": KindPDF, ".doc": KindDOC, ".docx": KindDOCX,
}

// ImageExtensions maps the allowed logo extensions (§5: jpeg, jpg, png, gif).
var ImageExtensions = map[string]string{
	".png": KindPNG, ".jpeg": KindJPEG, ".jpg": KindJPEG, ".gif": KindGIF,
}

var (
	magicPNG  = []byte("\x89PNG\r\n\x1a\n")
	magicJPEG = []byte{0xFF, 0xD8, 0xFF}
	magicGIF7 = []byte("GIF87a")
	magicGIF9 = []byte("GIF89a")
	magicPDF  = []byte("%PDF-")
	magicOLE2 = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	magicZIP  = []byte("PK\x03\x04")
)

// Sniff names the kind of r's content, or "" when it is none of the known kinds.
func Sniff(r io.ReaderAt, size int64) string {
	head := make([]byte, 16)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, magicPNG):
		return KindPNG
	case bytes.HasPrefix(head, magicJPEG):
		return KindJPEG
	case bytes.HasPrefix(head, magicGIF7), bytes.HasPrefix(head, magicGIF9):
		return KindGIF
	case bytes.HasPrefix(head, magicPDF):
		return KindPDF
	case bytes.HasPrefix(head, magicOLE2):
		return KindDOC
	case bytes.HasPrefix(head, magicZIP):
		if isDOCX(r, size) {
			return KindDOCX
		}
	}
	return ""
}

func isDOCX(r io.ReaderAt, size int64) bool {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return false
	}
	var types, word bool
	for _, f := range z.File {
		switch {
		case f.Name == "[Content_Types].xml":
			types = true
		case strings.HasPrefix(f.Name, "word/"):
			word = true
		}
	}
	return types && word
}

// KindOf checks a file's name against allowed extensions and its content against the name. It
// returns the kind and ok=false when either is wrong.
func KindOf(filename string, allowed map[string]string, r io.ReaderAt, size int64) (string, bool) {
	byName, ok := allowed[strings.ToLower(filepath.Ext(filename))]
	if !ok {
		return "", false
	}
	byContent := Sniff(r, size)
	return byName, byContent != "" && byContent == byName
}
