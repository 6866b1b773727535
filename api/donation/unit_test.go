package donation

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestCollectDayAndNextCharge(t *testing.T) {
	d := CollectDay(time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC))
	require.Equal(t, 15, *d)
	require.Nil(t, CollectDay(time.Date(2026, 2, 28, 10, 0, 0, 0, time.UTC)), "the last day of the month is stored as NULL")
	jan31 := 31
	require.Equal(t, "2026-02-28", nextCharge(time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC), &jan31).Format(time.DateOnly))
	require.Equal(t, "2026-03-31", nextCharge(time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC), nil).Format(time.DateOnly))
	require.Equal(t, "2027-01-15", nextCharge(time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC), d).Format(time.DateOnly))
}

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

func TestReceiptRefExpires(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := NewService(Deps{Secret: []byte("0123456789abcdef0123456789abcdef"), Now: func() time.Time { return now }})
	org, don := uuid.New(), uuid.New()
	ref := s.ReceiptRef(org, don)
	gotOrg, gotDon, ok := s.parseReceipt(ref)
	require.True(t, ok)
	require.Equal(t, org, gotOrg)
	require.Equal(t, don, gotDon)

	now = now.Add(ReceiptTTL - time.Second)
	_, _, ok = s.parseReceipt(ref)
	require.True(t, ok)
	now = now.Add(time.Second)
	_, _, ok = s.parseReceipt(ref)
	require.False(t, ok, "expired")

	other := NewService(Deps{Secret: []byte("another secret of thirty-two bytes!"), Now: func() time.Time { return now }})
	_, _, ok = s.parseReceipt(other.ReceiptRef(org, don))
	require.False(t, ok, "signed with another secret")
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
