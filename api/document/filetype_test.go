package document_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/document"
)

func TestKindOfChecksNameAndContent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		content []byte
		ok      bool
	}{
		{"acta.pdf", apitest.PDF, true},
		{"ACTA.PDF", apitest.PDF, true},
		{"dni.png", apitest.PNG, true},
		{"dni.jpg", apitest.JPEG, true},
		{"dni.jpeg", apitest.JPEG, true},
		{"estatuto.doc", apitest.DOC, true},
		{"estatuto.docx", apitest.DOCX, true},
		{"virus.pdf", apitest.EXE, false},     // renamed executable
		{"virus.exe", apitest.EXE, false},     // not an allowed extension
		{"acta.png", apitest.PDF, false},      // content does not match the name
		{"notes.docx", apitest.ZIP, false},    // a zip without word/
		{"estatuto.doc", apitest.DOCX, false}, // docx named .doc
		{"logo.gif", apitest.GIF, false},      // gif is for logos, not documents
		{"sin-extension", apitest.PDF, false},
		{"vacio.pdf", nil, false},
	}
	for _, c := range cases {
		_, ok := document.KindOf(c.name, document.DocumentExtensions, bytes.NewReader(c.content), int64(len(c.content)))
		require.Equal(t, c.ok, ok, c.name)
	}
	_, ok := document.KindOf("logo.gif", document.ImageExtensions, bytes.NewReader(apitest.GIF), int64(len(apitest.GIF)))
	require.True(t, ok)
	_, ok = document.KindOf("logo.pdf", document.ImageExtensions, bytes.NewReader(apitest.PDF), int64(len(apitest.PDF)))
	require.False(t, ok)
}
