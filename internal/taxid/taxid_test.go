package taxid_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/taxid"
)

// Each valid number carries its hand calculation. "public" marks numbers
// published by the organisation itself; the rest are built to reach a
// specific branch of the algorithm.
func TestValidateValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		country, typ, uid, bare string
	}{
		// AR: weights 5,4,3,2,7,6,5,4,3,2; digit 11 - sum%11.
		// public (example in AFIP docs): 10+0+3+14+14+30+20+12+15+18 = 136, 136%11 = 4, 11-4 = 7.
		{"AR", "CUIT", "20-17254359-7", "20172543597"},
		// public, YPF S.A.: 15+0+15+8+42+36+40+36+27+14 = 233, 233%11 = 2, 11-2 = 9.
		{"AR", "CUIT", "30546689979", "30546689979"},
		// public, AFIP: 15+12+18+18+21+24+25+0+6+6 = 145, 145%11 = 2, 11-2 = 9.
		{"ar", "cuit", " 33 69345023 9 ", "33693450239"},
		// 10+0+3+4+21+24+25+24+21+16 = 148, 148%11 = 5, 11-5 = 6.
		{"AR", "CUIL", "20-12345678-6", "20123456786"},
		// 10+0+3+4+21+24+25+24+24+8 = 143, 143%11 = 0, 11 -> 0.
		{"AR", "CUIT", "20-12345684-0", "20123456840"},
		// 10+12+3+4+21+24+25+24+24+8 = 155, 155%11 = 1, 10 under prefix 23 -> 9.
		{"AR", "CUIL", "23-12345684-9", "23123456849"},
		// DNI: 7 or 8 digits, no check digit.
		{"AR", "DNI", "12.345.678", "12345678"},
		{"AR", "DNI", "1234567", "1234567"},

		// BR CNPJ: weights 5,4,3,2,9,8,7,6,5,4,3,2 then 6,5,...,2; r<2 -> 0 else 11-r.
		// public (Receita's example): 5+4+6+4+18+24+21+18+0+0+0+2 = 102, 102%11 = 3 -> 8;
		// 6+5+8+6+4+27+24+21+0+0+0+3+16 = 120, 120%11 = 10 -> 1.
		{"BR", "CNPJ", "11.222.333/0001-81", "11222333000181"},
		// public, Banco do Brasil: 1*2 = 2 -> 9; 1*3 + 9*2 = 21, 21%11 = 10 -> 1.
		{"BR", "CNPJ", "00000000000191", "00000000000191"},
		// public, Receita's alphanumeric example (A=17 ... E=21):
		// 5+8+51+36+171+24+28+30+0+4+60+42 = 459, 459%11 = 8 -> 3;
		// 6+10+68+54+38+27+32+35+0+5+80+63+6 = 424, 424%11 = 6 -> 5.
		{"BR", "CNPJ", "12.abc.345/01de-35", "12ABC34501DE35"},
		// CPF: weights 10..2 then 11..2.
		// 50+18+72+63+48+10+8+12+14 = 295, 295%11 = 9 -> 2;
		// 55+20+81+72+56+12+10+16+21+4 = 347, 347%11 = 6 -> 5.
		{"BR", "CPF", "529.982.247-25", "52998224725"},

		// CL: weights 2..7 from the right; 11-r, 11 -> 0, 10 -> K.
		// public (brief): 16+6+16+30+48+0+12+21 = 149, 149%11 = 6, 11-6 = 5.
		{"CL", "RUT", "76.086.428-5", "760864285"},
		// public, SII: 0+0+0+15+0+56+0+18 = 89, 89%11 = 1, 10 -> K (lowercase accepted).
		{"CL", "RUT", "60.803.000-k", "60803000K"},
		// public, Banco de Chile: 0+0+0+20+0+0+14+27 = 61, 61%11 = 6, 11-6 = 5.
		{"CL", "RUT", "97004000-5", "970040005"},
		// 7-digit body: 14+18+20+20+18+14+2 = 106, 106%11 = 7, 11-7 = 4.
		{"CL", "RUT", "1.234.567-4", "12345674"},
		// 18+24+24+25+24+21+4+3 = 143, 143%11 = 0, 11 -> 0.
		{"CL", "RUT", "12.345.689-0", "123456890"},

		// CO: DIAN weights 3,7,13,17,19,23,29,37,41,... from the right; r<2 -> r else 11-r.
		// public, DIAN: 24+42+26+119+171+23+0+0+328 = 733, 733%11 = 7, 11-7 = 4.
		{"CO", "NIT", "800.197.268-4", "8001972684"},
		// public, Ecopetrol: 24+42+0+153+171+207+261+333+328 = 1519, 1519%11 = 1 -> 1.
		{"CO", "NIT", "899999068-1", "8999990681"},
		// 6+0+...+0+369 = 375, 375%11 = 1 -> 1.
		{"CO", "NIT", "900000002-1", "9000000021"},
		// 12-digit body: 6+7+0+153+152+161+174+185+164+129+94+53 = 1278, 1278%11 = 2, 11-2 = 9.
		{"CO", "NIT", "123456789012-9", "1234567890129"},

		// MX: values 0-9, A=10..N=23, &=24, O=25..Z=36, space=37, Ñ=38; weights 13..2
		// over the first 12 characters (space-padded); 11-r, 11 -> 0, 10 -> A.
		// public, SAT (moral): 37*13+29*12+10*11+30*10+9*9+7*8+0*7+7*6+0*5+1*4+23*3+23*2
		// = 1537, 1537%11 = 8, 11-8 = 3.
		{"MX", "RFC", "SAT-970701-NN3", "SAT970701NN3"},
		// public, SAT's example persona física: sum 1026, 1026%11 = 3, 11-3 = 8.
		{"MX", "RFC", "GODE561231GR8", "GODE561231GR8"},
		// public, BBVA México: sum 1098, 1098%11 = 9, 11-9 = 2.
		{"MX", "RFC", "bba830831lj2", "BBA830831LJ2"},
		// Ñ, lowercase ñ: sum 1603, 1603%11 = 8, 11-8 = 3.
		{"MX", "RFC", "AÑO850505XY3", "AÑO850505XY3"},
		// &, leap day 2000-02-29: sum 1095, 1095%11 = 6, 11-6 = 5.
		{"MX", "RFC", "A&C000229AB5", "A&C000229AB5"},

		// PE: weights 5,4,3,2,7,6,5,4,3,2; 11-r, 10 -> 0, 11 -> 1.
		// public, SUNAT: 10+0+3+6+7+18+5+8+27+10 = 94, 94%11 = 6, 11-6 = 5.
		{"PE", "RUC", "20131312955", "20131312955"},
		// public, Banco de Crédito del Perú: 10+0+3+0+0+0+20+28+6+2 = 69, 69%11 = 3, 11-3 = 8.
		{"PE", "RUC", "20100047218", "20100047218"},
		// 10+3+3+6 = 22, 22%11 = 0, 11 -> 1.
		{"PE", "RUC", "20100000131", "20100000131"},
		// 10+3+10 = 23, 23%11 = 1, 10 -> 0.
		{"PE", "RUC", "20100000050", "20100000050"},

		// UY: weights 4,3,2,9,8,7,6,5,4,3,2; 11-r, 11 -> 0.
		// public (DGI example): 8+3+2+0+0+21+24+10+0+0+2 = 70, 70%11 = 4, 11-4 = 7.
		{"UY", "RUT", "21-100342-001-7", "211003420017"},
		// 8+3+18+81+72+63+48+15+0+0+2 = 310, 310%11 = 2, 11-2 = 9.
		{"UY", "RUT", "219999830019", "219999830019"},
		// 8+3+2+40+2 = 55, 55%11 = 0, 11 -> 0.
		{"UY", "RUT", "211000080010", "211000080010"},
	}
	for _, tc := range tests {
		t.Run(tc.country+"/"+tc.typ+"/"+tc.uid, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, taxid.Validate(tc.country, tc.typ, tc.uid))
			bare, err := taxid.Normalize(tc.country, tc.typ, tc.uid)
			require.NoError(t, err)
			require.Equal(t, tc.bare, bare)
		})
	}
}

func TestValidateInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, country, typ, uid string
		want                    error
	}{
		{"empty", "AR", "CUIT", "", taxid.ErrRequired},
		{"only separators", "AR", "CUIT", " - . ", taxid.ErrRequired},
		{"unknown country", "EC", "RUC", "1790011674001", taxid.ErrTypeNotAllowed},
		{"type of another country", "AR", "RUC", "20131312955", taxid.ErrTypeNotAllowed},
		{"empty type", "AR", "", "20172543597", taxid.ErrTypeNotAllowed},

		{"AR digit changed", "AR", "CUIT", "20-17254359-8", taxid.ErrInvalidCheckDigit},
		{"AR body digit changed", "AR", "CUIT", "20-17254358-7", taxid.ErrInvalidCheckDigit},
		{"AR short", "AR", "CUIT", "20-1725435-7", taxid.ErrInvalidFormat},
		{"AR bad prefix", "AR", "CUIT", "21-17254359-7", taxid.ErrInvalidFormat},
		{"AR letters", "AR", "CUIT", "20-1725435A-7", taxid.ErrInvalidFormat},
		// sum 144, 144%11 = 1: a 10 is only rescued under prefix 23.
		{"AR result 10 under 20", "AR", "CUIT", "20-12345693-9", taxid.ErrInvalidCheckDigit},
		{"AR DNI too short", "AR", "DNI", "123456", taxid.ErrInvalidFormat},
		{"AR DNI too long", "AR", "DNI", "123456789", taxid.ErrInvalidFormat},

		{"BR CNPJ first digit changed", "BR", "CNPJ", "11.222.333/0001-91", taxid.ErrInvalidCheckDigit},
		{"BR CNPJ second digit changed", "BR", "CNPJ", "11.222.333/0001-82", taxid.ErrInvalidCheckDigit},
		{"BR CNPJ all same", "BR", "CNPJ", "00.000.000/0000-00", taxid.ErrInvalidCheckDigit},
		{"BR CNPJ short", "BR", "CNPJ", "11.222.333/0001-8", taxid.ErrInvalidFormat},
		{"BR CNPJ letter in check digits", "BR", "CNPJ", "12.ABC.345/01DE-3A", taxid.ErrInvalidFormat},
		{"BR CPF digit changed", "BR", "CPF", "529.982.247-24", taxid.ErrInvalidCheckDigit},
		// 111.111.111-11 passes mod 11 but is a well-known placeholder.
		{"BR CPF all same", "BR", "CPF", "111.111.111-11", taxid.ErrInvalidCheckDigit},
		{"BR CPF letters", "BR", "CPF", "529.982.247-2X", taxid.ErrInvalidFormat},

		{"CL digit changed", "CL", "RUT", "76.086.428-6", taxid.ErrInvalidCheckDigit},
		{"CL K expected, 0 given", "CL", "RUT", "60.803.000-0", taxid.ErrInvalidCheckDigit},
		{"CL body too short", "CL", "RUT", "123.456-7", taxid.ErrInvalidFormat},
		{"CL bad check character", "CL", "RUT", "76.086.428-X", taxid.ErrInvalidFormat},

		{"CO digit changed", "CO", "NIT", "800.197.268-5", taxid.ErrInvalidCheckDigit},
		{"CO without check digit", "CO", "NIT", "80019726", taxid.ErrInvalidFormat},
		{"CO body too long", "CO", "NIT", "1234567890123-4", taxid.ErrInvalidFormat},

		{"MX digit changed", "MX", "RFC", "SAT970701NN4", taxid.ErrInvalidCheckDigit},
		{"MX month 13", "MX", "RFC", "SAT971301NN3", taxid.ErrInvalidFormat},
		{"MX 30 February", "MX", "RFC", "GODE560230GR8", taxid.ErrInvalidFormat},
		{"MX 29 February of a common year", "MX", "RFC", "PEGJ010229AB8", taxid.ErrInvalidFormat},
		{"MX digit in name", "MX", "RFC", "S4T970701NN3", taxid.ErrInvalidFormat},
		{"MX too short", "MX", "RFC", "SA970701NN3", taxid.ErrInvalidFormat},
		{"MX symbol in homoclave", "MX", "RFC", "SAT970701N#3", taxid.ErrInvalidFormat},
		// SAT's generic RFC for the general public is not a real taxpayer.
		{"MX generic RFC", "MX", "RFC", "XAXX010101000", taxid.ErrInvalidCheckDigit},

		{"PE digit changed", "PE", "RUC", "20131312956", taxid.ErrInvalidCheckDigit},
		{"PE bad prefix", "PE", "RUC", "30131312955", taxid.ErrInvalidFormat},
		{"PE short", "PE", "RUC", "2013131295", taxid.ErrInvalidFormat},

		{"UY digit changed", "UY", "RUT", "21-100342-001-8", taxid.ErrInvalidCheckDigit},
		// 8+3+2+30+2 = 45, 45%11 = 1: the digit would be 10, so no number exists.
		{"UY result 10", "UY", "RUT", "21-100006-001-0", taxid.ErrInvalidCheckDigit},
		{"UY prefix 23", "UY", "RUT", "23-100342-001-7", taxid.ErrInvalidFormat},
		{"UY prefix 00", "UY", "RUT", "00-100342-001-7", taxid.ErrInvalidFormat},
		{"UY short", "UY", "RUT", "21-100342-001", taxid.ErrInvalidFormat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := taxid.Validate(tc.country, tc.typ, tc.uid)
			require.ErrorIs(t, err, tc.want)
			for _, other := range []error{taxid.ErrRequired, taxid.ErrInvalidFormat, taxid.ErrInvalidCheckDigit, taxid.ErrTypeNotAllowed} {
				if other != tc.want {
					require.NotErrorIs(t, err, other)
				}
			}
			_, err = taxid.Normalize(tc.country, tc.typ, tc.uid)
			require.ErrorIs(t, err, tc.want)
			_, err = taxid.Format(tc.country, tc.typ, tc.uid)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

func TestErrorCarriesContext(t *testing.T) {
	t.Parallel()
	err := taxid.Validate("br", "cpf", "529.982.247-24")
	var e *taxid.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, taxid.Error{Code: taxid.CodeInvalidCheckDigit, Country: "BR", Type: "CPF"}, *e)
	require.Equal(t, "uid_invalid_check_digit", string(e.Code))
	require.Contains(t, err.Error(), "uid_invalid_check_digit")
}

func TestFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		country, typ, uid, want string
	}{
		{"AR", "CUIT", "20172543597", "20-17254359-7"},
		{"AR", "CUIL", "20 12345678 6", "20-12345678-6"},
		{"AR", "DNI", "12.345.678", "12345678"},
		{"AR", "DNI", "1234567", "1234567"},
		{"BR", "CNPJ", "11222333000181", "11.222.333/0001-81"},
		{"BR", "CNPJ", "12abc34501de35", "12.ABC.345/01DE-35"},
		{"BR", "CPF", "52998224725", "529.982.247-25"},
		{"CL", "RUT", "760864285", "76.086.428-5"},
		{"CL", "RUT", "60803000k", "60.803.000-K"},
		{"CL", "RUT", "12345674", "1.234.567-4"},
		{"CO", "NIT", "8001972684", "800197268-4"},
		{"CO", "NIT", "9000000021", "900000002-1"},
		// 0+63+104+119+114+115+116+111+82+43 = 867, 867%11 = 9, 11-9 = 2.
		{"CO", "NIT", "12345678902", "1234567890-2"},
		// 3+0+117+136+133+138+145+148+123+86+47 = 1076, 1076%11 = 9, 11-9 = 2.
		{"CO", "NIT", "123456789012", "12345678901-2"},
		{"CO", "NIT", "1234567890129", "123456789012-9"},
		{"MX", "RFC", "sat970701nn3", "SAT-970701-NN3"},
		{"MX", "RFC", "GODE561231GR8", "GODE-561231-GR8"},
		{"MX", "RFC", "año850505xy3", "AÑO-850505-XY3"},
		{"PE", "RUC", "20131312955", "20131312955"},
		{"UY", "RUT", "211003420017", "21-100342-001-7"},
	}
	for _, tc := range tests {
		t.Run(tc.country+"/"+tc.typ+"/"+tc.uid, func(t *testing.T) {
			t.Parallel()
			got, err := taxid.Format(tc.country, tc.typ, tc.uid)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			// A formatted uid must read back as the same identifier.
			again, err := taxid.Format(tc.country, tc.typ, got)
			require.NoError(t, err)
			require.Equal(t, got, again)
		})
	}
}

func TestMessagesCoverEveryCode(t *testing.T) {
	t.Parallel()
	codes := []taxid.Code{taxid.CodeRequired, taxid.CodeInvalidFormat, taxid.CodeInvalidCheckDigit, taxid.CodeTypeNotAllowed}
	require.Len(t, taxid.Messages, len(codes))
	for _, code := range codes {
		m, ok := taxid.Messages[code]
		require.True(t, ok, code)
		for _, text := range []string{m.ES, m.EN, m.PT} {
			require.NotEmpty(t, strings.TrimSpace(text), code)
		}
	}
	require.True(t, errors.Is(&taxid.Error{Code: taxid.CodeRequired, Country: "AR"}, taxid.ErrRequired))
}

// Every donor document type of spec §3 has a known longest number, and a card number (13 to 19
// digits) is longer than every one but the generic "Otro".
func TestMaxDocumentLength(t *testing.T) {
	t.Parallel()
	want := map[string]int{"CC": 10, "CE": 12, "CI": 8, "CUIL": 11, "CUIT": 11, "DNI": 8, "LC": 8, "LE": 8,
		"NIT": 13, "Otro": 20, "RFC": 13, "RUC": 11, "RUT": 12, "CPF": 11, "CNPJ": 14}
	for docType, n := range want {
		require.Equal(t, n, taxid.MaxDocumentLength(docType), docType)
	}
	require.Zero(t, taxid.MaxDocumentLength("PASSPORT"))
}
