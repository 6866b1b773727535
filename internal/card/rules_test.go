package card_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/gateway"
)

func TestRulesDetectAndCheck(t *testing.T) {
	t.Parallel()
	rules := card.NewRules([]gateway.CardMethod{
		{ID: "visa", Name: "Visa", PaymentType: "credit_card", BINPattern: `^4`, ExclusionPattern: `^(400276)`, Lengths: []int{16}, SecurityCodeLength: 3, Luhn: true},
		{ID: "mastercard", Name: "Mastercard", PaymentType: "credit_card", BINPattern: `^5`, ExclusionPattern: `^(528733|589562)`, Lengths: []int{16}, SecurityCodeLength: 3, Luhn: true},
		{ID: "debvisa", Name: "Visa Débito", PaymentType: "debit_card", BINPattern: `^(400276)`, Lengths: []int{16}, SecurityCodeLength: 3, Luhn: true},
		{ID: "debmaster", Name: "Mastercard Débito", PaymentType: "debit_card", BINPattern: `^(528733)`, Lengths: []int{16}, SecurityCodeLength: 3, Luhn: true},
		{ID: "naranja", Name: "Naranja", PaymentType: "credit_card", BINPattern: `^(589562)`, Lengths: []int{16}, SecurityCodeLength: 3},
		{ID: "amex", Name: "American Express", PaymentType: "credit_card", BINPattern: `^3[47]`, Lengths: []int{15}, SecurityCodeLength: 4, Luhn: true},
		{ID: "broken", BINPattern: `^6`, ExclusionPattern: `(`},      // dropped: its exclusion does not compile
		{ID: "nopattern", Lengths: []int{16}, SecurityCodeLength: 3}, // kept, never detected
	})
	require.True(t, rules.Patterned())
	for number, want := range map[string]card.Brand{
		"5031 7557 3453 0604": "mastercard",
		"503175":              "mastercard",
		"5287-3383-1025-3304": "debmaster",
		"4002768694395619":    "debvisa",
		"4509953566233704":    "visa",
		"5895620000000001":    "naranja",
	} {
		r, ok := rules.Detect(number)
		require.True(t, ok, number)
		require.Equal(t, want, r.Brand, number)
	}
	for _, number := range []string{"6042010000000000", "", "4509x"} {
		_, ok := rules.Detect(number)
		require.False(t, ok, number)
	}

	master, _ := rules.Detect("5031755734530604")
	require.True(t, master.ValidNumber("5031 7557 3453 0604"))
	require.False(t, master.ValidNumber("5031755734530605"), "Luhn")
	require.False(t, master.ValidNumber("503175573453060"), "length")
	require.True(t, master.ValidCVV("123"))
	require.False(t, master.ValidCVV("1234"))
	naranja, _ := rules.Detect("589562")
	require.True(t, naranja.ValidNumber("5895620000000001"), "naranja has no Luhn digit")
	amex, _ := rules.Detect("371180303257522")
	require.True(t, amex.ValidCVV("1234"))
	require.False(t, amex.ValidCVV("123"))

	require.False(t, card.NewRules([]gateway.CardMethod{{ID: "visa", Lengths: []int{16}}}).Patterned(),
		"without patterns the brand is the BIN lookup's to tell")
}
