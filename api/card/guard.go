package card

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
)

// keyClass is what a JSON key says about the value under it.
type keyClass int

const (
	keyOther keyClass = iota
	// keyExempt: identifiers that may look like card numbers but are not:
	// documents, tax ids, phones, bank accounts, tokens, ids.
	keyExempt
	// keyCardNumber: a key that names a card number (card_number, pan).
	keyCardNumber
	// keyCVV: a key that names a card security code (cvv, security_code).
	keyCVV
	// keyNumber: the bare key "number", a card number unless its parent
	// says otherwise ({"phone": {"number": ...}}).
	keyNumber
)

var (
	exemptWords = []string{
		"id", "uid", "uuid", "guid", "token", "document", "doc", "identification",
		"dni", "cpf", "cnpj", "cuit", "cuil", "rut", "nit", "ruc", "rfc", "ci", "tax",
		"phone", "cellphone", "telephone", "mobile", "tel", "whatsapp",
		"account", "cbu", "cvu", "clabe", "iban",
	}
	cvvWords  = []string{"cvv", "cvc", "cvv2", "cvc2", "cvn", "csc", "securitycode"}
	cardWords = []string{"card", "cc", "creditcard"}
	numWords  = []string{"number", "num", "no", "nr"}
)

// classify splits a key into lowercase words (snake_case, kebab-case and
// camelCase alike) and matches whole words, so "cardCvv" and "card_cvv" are
// security-code keys but "cvvmode" is not. Exempt words win over card
// words: "card_holder_id_number" is the holder's document.
func classify(key string) keyClass {
	words := splitKey(key)
	has := func(set []string) bool {
		return slices.ContainsFunc(words, func(w string) bool {
			// Plurals name lists of the same thing: "phones", "tokens".
			return slices.Contains(set, w) || slices.Contains(set, strings.TrimSuffix(w, "s"))
		})
	}
	switch {
	case has(exemptWords):
		return keyExempt
	case has(cvvWords),
		has([]string{"security"}) && has([]string{"code"}),
		has([]string{"verification"}) && has(cardWords):
		return keyCVV
	case has([]string{"pan", "cardnumber", "ccnumber"}),
		has(cardWords) && (has(numWords) || len(words) == 1):
		return keyCardNumber
	case len(words) == 1 && words[0] == "number":
		return keyNumber
	}
	return keyOther
}

func splitKey(key string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range key {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				flush()
			}
			cur, prevLower = append(cur, unicode.ToLower(r)), false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur, prevLower = append(cur, r), true
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return words
}

// frame is an open JSON object or array while walking the token stream.
type frame struct {
	object  bool
	wantKey bool
	key     keyClass // class of the current key, objects only
	class   keyClass // class of the key the container sits under
	parent  keyClass // class of the container's own container, arrays only
}

// ContainsCardData reports whether a JSON body carries a full card number or
// a security code anywhere, at any depth, so the API can refuse it before it
// is stored or logged. It flags:
//   - under a card-number key (card_number, cc_number, pan, number): a
//     string or number of 12 to 19 digits, spaces and dashes allowed;
//   - under a security-code key (cvv, cvc, security_code,
//     cc_verification_number): 3 or 4 digits;
//   - under any other key: a number ValidNumber accepts (known brand and
//     length, Luhn), which catches card numbers under unexpected names.
//
// Values under document, tax id, phone, account, token and id keys are never
// card numbers, and neither is a bare "number" inside such an object. The
// token stream is walked rather than decoded into maps so duplicate keys
// cannot hide a value. A body that is not valid JSON reports only what was
// read before the syntax error: reject such bodies before logging them.
func ContainsCardData(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // keep long numbers exact instead of float64
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false // io.EOF, or malformed JSON
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if top != nil && top.wantKey {
			if key, ok := tok.(string); ok {
				top.key, top.wantKey = classify(key), false
			} else { // '}'
				stack = stack[:len(stack)-1]
			}
			continue
		}
		// The class of the value's own key, and of the key above it. An
		// array element takes the array's key as its own.
		own, parent := keyOther, keyOther
		switch {
		case top == nil:
		case top.object:
			own, parent, top.wantKey = top.key, top.class, true
		default:
			own, parent = top.class, top.parent
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, frame{object: true, wantKey: true, class: own})
			case '[':
				stack = append(stack, frame{class: own, parent: parent})
			default: // ']'
				stack = stack[:len(stack)-1]
			}
		case string:
			if isCardData(own, parent, v) {
				return true
			}
		case json.Number:
			if isCardData(own, parent, v.String()) {
				return true
			}
		}
	}
}

func isCardData(own, parent keyClass, value string) bool {
	switch {
	case own == keyCVV:
		v := strings.TrimSpace(value)
		return (len(v) == 3 || len(v) == 4) && isDigits(v)
	case own == keyCardNumber:
		return isPANShaped(value)
	case own == keyExempt || parent == keyExempt:
		return false
	case own == keyNumber:
		return isPANShaped(value)
	}
	return isPANShaped(value) && ValidNumber(value)
}

// isPANShaped reports whether s is 12 to 19 digits once spaces and dashes
// are removed.
func isPANShaped(s string) bool {
	d := clean(s)
	return len(d) >= 12 && len(d) <= 19 && isDigits(d)
}
