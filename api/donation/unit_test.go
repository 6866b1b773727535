package donation

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDocType(t *testing.T) {
	require.Equal(t, "DNI", docType("dni", documentTypes["AR"]))
	require.Equal(t, "Otro", docType("CPF", documentTypes["AR"]))
	require.Equal(t, "Otro", docType("", documentTypes["BR"]))
}

func TestDecimalAcceptsNumbersAndStrings(t *testing.T) {
	var d Decimal
	require.NoError(t, d.UnmarshalJSON([]byte(`1500.5`)))
	require.Equal(t, Decimal("1500.5"), d)
	require.NoError(t, d.UnmarshalJSON([]byte(`" 200 "`)))
	require.Equal(t, Decimal("200"), d)
}

// A document number is capped at its type's longest: a card number in a DNI or CUIT field is too long.
func TestDocumentNumberIsCappedPerType(t *testing.T) {
	for _, tc := range []struct{ docType, raw, digits, code string }{
		{"DNI", "12.345.678", "12345678", ""},
		{"DNI", "123.456.789", "123456789", "donation.document_too_long"},
		{"CUIT", "20-17254359-7", "20172543597", ""},
		{"CUIT", "4509 9535 6623 3704", "4509953566233704", "donation.document_too_long"},
		{"RUT", "21.123456.001-2", "211234560012", ""},
		{"Otro", "12345678901234567890", "12345678901234567890", ""},
		{"Otro", "123456789012345678901", "123456789012345678901", "donation.document_too_long"},
		{"", "123456789012345678901", "123456789012345678901", "donation.document_too_long"},
		{"DNI", "1-2", "12", "donation.document_number"},
	} {
		digits, code := documentNumber(tc.docType, tc.raw)
		require.Equal(t, tc.digits, digits, tc)
		require.Equal(t, tc.code, code, tc)
	}
}
