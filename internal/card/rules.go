package card

import (
	"regexp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aporta/aporta/internal/gateway"
)

// Rule is one card brand as a gateway account states it (gateway.CardMethod), its patterns compiled.
type Rule struct {
	Brand       Brand
	Name        string
	PaymentType string
	Lengths     []int
	CVVLength   int
	Luhn        bool
	pattern     *regexp.Regexp // nil: the gateway publishes none, so the brand is never detected by pattern
	exclusion   *regexp.Regexp
}

// Rules are the card brands an account takes, in the gateway's order.
type Rules []Rule

// NewRules compiles a gateway's card methods. A pattern that does not compile leaves its brand
// undetectable by pattern rather than failing every card; an exclusion that does not compile drops
// the brand, as it would otherwise claim numbers the gateway meant for another.
func NewRules(methods []gateway.CardMethod) Rules {
	rs := make(Rules, 0, len(methods))
	for _, m := range methods {
		r := Rule{Brand: Brand(m.ID), Name: m.Name, PaymentType: m.PaymentType, Lengths: m.Lengths,
			CVVLength: m.SecurityCodeLength, Luhn: m.Luhn}
		if m.BINPattern != "" {
			r.pattern, _ = compile(m.BINPattern)
		}
		if m.ExclusionPattern != "" {
			ex, err := compile(m.ExclusionPattern)
			if err != nil {
				continue
			}
			r.exclusion = ex
		}
		rs = append(rs, r)
	}
	return rs
}

// compiled keeps each pattern compiled once: every submission of the donation form builds its account's rules
// (issue 19), and the patterns are the gateways' few. Up to maxCompiled are kept; a pattern past them is compiled
// every time.
var compiled sync.Map // pattern → *regexp.Regexp, or error

var compiledCount atomic.Int64

const maxCompiled = 512

func compile(pattern string) (*regexp.Regexp, error) {
	if v, ok := compiled.Load(pattern); ok {
		if re, ok := v.(*regexp.Regexp); ok {
			return re, nil
		}
		return nil, v.(error)
	}
	re, err := regexp.Compile(pattern)
	if compiledCount.Load() < maxCompiled {
		var v any = re
		if err != nil {
			v = err
		}
		if _, loaded := compiled.LoadOrStore(pattern, v); !loaded {
			compiledCount.Add(1)
		}
	}
	return re, err
}

// Patterned reports whether any brand can be detected by pattern; when none can, the gateway's BIN
// lookup is the only way to tell a card's brand.
func (rs Rules) Patterned() bool {
	return slices.ContainsFunc(rs, func(r Rule) bool { return r.pattern != nil })
}

// Detect returns the brand of a card number or BIN (spaces and dashes ignored): the first rule
// whose pattern matches and whose exclusion does not, as the gateway's own checkout does.
func (rs Rules) Detect(number string) (Rule, bool) {
	digits := clean(number)
	if !isDigits(digits) {
		return Rule{}, false
	}
	for _, r := range rs {
		if r.pattern != nil && r.pattern.MatchString(digits) && (r.exclusion == nil || !r.exclusion.MatchString(digits)) {
			return r, true
		}
	}
	return Rule{}, false
}

// ValidNumber reports whether a whole card number of this brand has a valid length and, unless
// the brand is exempt, a correct Luhn digit.
func (r Rule) ValidNumber(number string) bool {
	digits := clean(number)
	return isDigits(digits) && slices.Contains(r.Lengths, len(digits)) && (!r.Luhn || Luhn(digits))
}

// ValidCVV reports whether cvv is a security code of the brand's length.
func (r Rule) ValidCVV(cvv string) bool {
	return isDigits(cvv) && len(cvv) == r.CVVLength
}
