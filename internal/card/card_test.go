package card_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/card"
)

// Numbers are gateways' public test cards where one exists; the rest are a
// brand prefix padded with zeros plus the Luhn digit.
func TestDetectBrand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		number string
		want   card.Brand
	}{
		{"4111111111111111", card.Visa},
		{"4509 9535 6623 3704", card.Visa},
		{"5555555555554444", card.Mastercard},
		{"5031 7557 3453 0604", card.Mastercard}, // MercadoPago's Argentine test Mastercard, once taken for Maestro
		{"5287 3383 1025 3304", card.DebMaster},
		{"4002 7686 9439 5619", card.DebVisa},
		{"5067 7667 8388 8311", card.DebElo},
		{"2223003122003222", card.Mastercard},
		{"378282246310005", card.Amex},
		{"341111", card.Amex},
		{"30569309025904", card.Diners},
		{"38520000023237", card.Diners},
		{"36227206271667", card.Diners},
		{"6759649826438453", card.Maestro},
		{"6000000000007", card.Maestro},
		{"6200000000000005", card.UnionPay},
		{"8171999927660000", card.UnionPay},
		{"6011111111111117", card.Discover},
		{"6500000000000002", card.Discover},
		{"6362970000457013", card.Elo},
		{"5067000000000009", card.Elo},
		{"4011780000000000", card.Elo},
		{"6062825624254001", card.Hipercard},
		{"3841000000000007", card.Hipercard},
		{"3530111333300000", card.JCB},
		{"5895620000000002", card.Naranja},
		{"6035227716427021", card.Cabal},
		{"6042012000000002", card.Cabal},
		{"6271700000000000", card.Cabal},
		{"5898920000000003", card.OCA},
		{"5429910000000002", card.OCA},
		{"2200000000000004", card.Mir},
		{"6370950000000005", card.Hiper},
		{"6373742300000000", card.Hiper},
		{"4513770000000000", card.DebVisa},
		{"4517-6500", card.DebVisa}, // first 6 to 8 digits are enough
		{"", card.Unknown},
		{"1000000000000008", card.Unknown},
		{"9999999999999995", card.Unknown},
		{"abcd", card.Unknown},
	}
	for _, tc := range tests {
		t.Run(tc.number, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, card.DetectBrand(tc.number))
		})
	}
}

func TestLuhn(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"4111111111111111": true,
		"4111111111111112": false,
		"79927398713":      true, // the textbook example
		"79927398710":      false,
		"0":                true,
		"":                 false,
		"4111 1111":        false, // Luhn takes digits only; clean first
		"41111111111111x1": false,
	}
	for digits, want := range tests {
		t.Run(digits, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, want, card.Luhn(digits))
		})
	}
}

func TestValidNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, number string
		want         bool
	}{
		{"visa 16", "4111 1111 1111 1111", true},
		{"visa 13", "4222222222222", true},
		{"visa dashes", "4111-1111-1111-1111", true},
		{"visa bad Luhn", "4111111111111112", false},
		{"visa 14 digits", "40000000000002", false}, // Luhn-valid, wrong length
		{"mastercard", "5555555555554444", true},
		{"amex 15", "378282246310005", true},
		{"amex bad Luhn", "378282246310006", false},
		{"diners 14", "30569309025904", true},
		{"maestro 19", "6759000000000000005", true},
		{"maestro 12", "600000000007", true},
		{"elo", "6362970000457013", true},
		{"hipercard", "6062825624254001", true},
		{"cabal", "6035227716427021", true},
		{"oca", "5898920000000003", true},
		{"mir", "2200000000000004", true},
		{"hiper", "6370950000000005", true},
		{"discover", "6011111111111117", true},
		{"jcb", "3530111333300000", true},
		// No Luhn check for naranja, debvisa and unionpay: bad digits pass.
		{"naranja bad Luhn", "5895620000000001", true},
		{"debvisa bad Luhn", "4513770000000001", true},
		{"unionpay bad Luhn", "6200000000000001", true},
		{"naranja wrong length", "589562000000001", false},
		{"unknown brand", "1000000000000008", false},
		{"letters", "4111a11111111111", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, card.ValidNumber(tc.number))
		})
	}
}

func TestValidCVV(t *testing.T) {
	t.Parallel()
	tests := []struct {
		brand card.Brand
		cvv   string
		want  bool
	}{
		{card.Visa, "123", true},
		{card.Visa, "1234", false},
		{card.Visa, "12", false},
		{card.Mastercard, "000", true},
		{card.Amex, "123", true},
		{card.Amex, "1234", true},
		{card.Amex, "12345", false},
		{card.Unknown, "123", true},
		{card.Unknown, "1234", true},
		{card.Unknown, "12", false},
		{card.Naranja, "12a", false},
		{card.Visa, "", false},
	}
	for _, tc := range tests {
		t.Run(string(tc.brand)+"/"+tc.cvv, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, card.ValidCVV(tc.brand, tc.cvv))
		})
	}
}

func TestParseExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, time.November, 22, 15, 4, 5, 0, time.UTC)
	tests := []struct {
		in      string
		want    card.Expiry
		wantErr error
	}{
		{"12 / 26", card.Expiry{Month: time.December, Year: 2026}, nil},
		{"11/26", card.Expiry{Month: time.November, Year: 2026}, nil}, // valid through the month's end
		{"01/2027", card.Expiry{Month: time.January, Year: 2027}, nil},
		{" 06 / 2030 ", card.Expiry{Month: time.June, Year: 2030}, nil},
		{"12/69", card.Expiry{Month: time.December, Year: 2069}, nil},
		{"10/26", card.Expiry{Month: time.October, Year: 2026}, card.ErrExpired},
		{"12/25", card.Expiry{Month: time.December, Year: 2025}, card.ErrExpired},
		{"01/70", card.Expiry{Month: time.January, Year: 1970}, card.ErrExpired}, // 70 and up are 19YY
		{"13/27", card.Expiry{}, card.ErrExpiryFormat},
		{"00/27", card.Expiry{}, card.ErrExpiryFormat},
		{"1/27", card.Expiry{}, card.ErrExpiryFormat},
		{"12/7", card.Expiry{}, card.ErrExpiryFormat},
		{"12/1999", card.Expiry{}, card.ErrExpiryFormat}, // only a 20 prefix is allowed
		{"12/20271", card.Expiry{}, card.ErrExpiryFormat},
		{"12-27", card.Expiry{}, card.ErrExpiryFormat},
		{"1227", card.Expiry{}, card.ErrExpiryFormat},
		{"ab/cd", card.Expiry{}, card.ErrExpiryFormat},
		{"12/+7", card.Expiry{}, card.ErrExpiryFormat},
		{"", card.Expiry{}, card.ErrExpiryFormat},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := card.ParseExpiry(tc.in, now)
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, tc.want, got)
		})
	}
}
