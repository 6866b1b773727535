package card

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/aporta/aporta/internal/taxid"
)

// keyClass is what a JSON key says about the value under it.
type keyClass int

const (
	keyOther keyClass = iota
	// keyIdentifier: documents, tax ids, phones, bank accounts, ids. Their
	// values are checked like any free text; only a bare "number" inside
	// them is not taken for a card number on its shape alone.
	keyIdentifier
	// keyCardNumber: a key that names a card number (card_number, pan).
	keyCardNumber
	// keyCVV: a key that names a card security code (cvv, security_code).
	keyCVV
	// keyNumber: the bare key "number", a card number unless its parent
	// says otherwise ({"phone": {"number": ...}}).
	keyNumber
	// keyExempt: the few keys whose values are not free text and may look
	// like a card number (exemptKeys).
	keyExempt
)

var (
	// exemptKeys match whole keys, exactly: the gateway's card token and the
	// card vault's (vault_token), which a format-preserving tokeniser may shape
	// like a card number or which may hold a Luhn-valid run of digits, and a
	// campaign's Meta pixel id, 15 or 16 digits Meta issues.
	exemptKeys      = []string{"token", "vault_token", "pixel_id"}
	identifierWords = []string{
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
// security-code keys but "cvvmode" is not. Identifier words win over card
// words: "card_holder_id_number" is the holder's document.
func classify(key string) keyClass {
	if slices.Contains(exemptKeys, key) {
		return keyExempt
	}
	words := splitKey(key)
	has := func(set []string) bool {
		return slices.ContainsFunc(words, func(w string) bool {
			// Plurals name lists of the same thing: "phones", "tokens".
			return slices.Contains(set, w) || slices.Contains(set, strings.TrimSuffix(w, "s"))
		})
	}
	switch {
	case has(identifierWords):
		return keyIdentifier
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
	seg     string   // path segment of the value being read: its key, or its index
	next    int      // index of the next element, arrays only
}

// ContainsCardData reports whether Find finds card data in a JSON body.
func ContainsCardData(body []byte) bool {
	return len(Find(body)) > 0
}

// Find reports where a JSON body carries a full card number or a security
// code, at any depth, so the API can refuse it before it is stored, exported
// or logged: the dotted path of every such value ("donor.uid_number",
// "form_fields.2.value"; "" for a top-level value), none when it is clean.
// It flags:
//   - under a card-number key (card_number, cc_number, pan, number): a
//     string or number of 12 to 19 digits, spaces and dashes allowed;
//   - under a security-code key (cvv, cvc, security_code,
//     cc_verification_number): 3 or 4 digits;
//   - in every other value, documents, phones and accounts included: a card
//     number written anywhere in the text (InText).
//
// Only the values of exemptKeys (the gateway's card token, say) and UUIDs
// are never card numbers, and a bare "number" inside a document, phone or
// account object is not one on its shape alone. The token stream is walked
// rather than decoded into maps so duplicate keys cannot hide a value. A body
// that is not valid JSON reports only what was read before the syntax error:
// reject such bodies before logging them.
func Find(body []byte) (paths []string) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // keep long numbers exact instead of float64
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return paths // io.EOF, or malformed JSON
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if top != nil && top.wantKey {
			if key, ok := tok.(string); ok {
				top.key, top.seg, top.wantKey = classify(key), key, false
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
			if tok != json.Delim(']') {
				top.seg, top.next = strconv.Itoa(top.next), top.next+1
			}
			own, parent = top.class, top.parent
		}
		var value string
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
			continue
		case string:
			value = v
		case json.Number:
			if !isDigits(v.String()) {
				continue // a decimal, negative or exponent number is an amount, not a card
			}
			value = v.String()
		default: // bool, null
			continue
		}
		if isCardData(own, parent, value) {
			segs := make([]string, len(stack))
			for i, f := range stack {
				segs[i] = f.seg
			}
			paths = append(paths, strings.Join(segs, "."))
		}
	}
}

func isCardData(own, parent keyClass, value string) bool {
	switch {
	case own == keyCVV:
		v := strings.TrimSpace(value)
		return (len(v) == 3 || len(v) == 4) && isDigits(v)
	case own == keyExempt:
		return false
	case own == keyCardNumber, own == keyNumber && parent != keyIdentifier:
		if isPANShaped(value) {
			return true
		}
	}
	return InText(value)
}

// isPANShaped reports whether s is 12 to 19 digits once spaces and dashes
// are removed.
func isPANShaped(s string) bool {
	d := clean(s)
	return len(d) >= 12 && len(d) <= 19 && isDigits(d)
}

var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// InText reports whether free text holds a card number: 13 to 19 digits,
// whole digit groups joined by single spaces, dashes or dots ("4111 1111
// 1111 1111", "4111-1111-1111-1111"), that ValidNumber accepts (a known
// brand, a length valid for it and, where the brand has one, a correct Luhn
// digit). The number may stand alone or sit inside a longer text ("mi
// tarjeta es 4111 1111 1111 1111"). A UUID is never a card number.
func InText(s string) bool {
	if uuidRe.MatchString(s) {
		return false
	}
	// groups are the digit groups of the current run; a run ends at any
	// character that is neither a digit nor a single separator between two
	// digit groups.
	var groups []string
	start := -1 // start of the current digit group, -1 outside one
	for i := 0; i <= len(s); i++ {
		digit := i < len(s) && s[i] >= '0' && s[i] <= '9'
		switch {
		case digit && start < 0:
			start = i
		case digit:
		case start >= 0: // a group ends
			groups = append(groups, s[start:i])
			start = -1
			if i+1 < len(s) && strings.IndexByte(" -.", s[i]) >= 0 && s[i+1] >= '0' && s[i+1] <= '9' {
				continue // a single separator: the run goes on
			}
			if cardInGroups(groups) {
				return true
			}
			groups = groups[:0]
		}
	}
	return false
}

// cardInGroups reports whether consecutive whole groups spell a card number. A Brazilian CNPJ
// typed bare is 14 digits, and about one in sixty would pass as a Diners or Maestro number: one
// with valid CNPJ check digits is taken for the organisation's tax id it almost surely is.
func cardInGroups(groups []string) bool {
	for i := range groups {
		n := 0
		for j := i; j < len(groups) && n < 19; j++ {
			n += len(groups[j])
			if n < 13 || n > 19 {
				continue
			}
			number := strings.Join(groups[i:j+1], "")
			if ValidNumber(number) && !(n == 14 && taxid.Validate("BR", "CNPJ", number) == nil) {
				return true
			}
		}
	}
	return false
}
