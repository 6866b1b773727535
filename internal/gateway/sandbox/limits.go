package sandbox

import (
	"net/http"
	"strings"
)

// Limits are the card payment limits GET /v1/payment_methods states for every method, in major
// units of the account's currency (MercadoPago's min_allowed_amount and max_allowed_amount).
// Tests change them with POST /__sandbox/limits {"min": 50, "max": 5000}; {} restores the defaults.
// With "key", the change applies only to requests made with that access token or public key, so
// a test on the shared sandbox does not move the limits under tests running beside it.
type Limits struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// DefaultLimits are the donation form's defaults (donor spec §9).
var DefaultLimits = Limits{Min: 10, Max: 8000}

func (s *Server) setLimits(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Limits
		Key string `json:"key"`
	}
	if !decode(w, r, &in) {
		return
	}
	l, restore := in.Limits, in.Limits == (Limits{})
	if restore {
		l = DefaultLimits
	}
	if l.Min <= 0 || l.Max < l.Min {
		writeError(w, http.StatusBadRequest, "min must be positive and max at least min")
		return
	}
	s.mu.Lock()
	switch {
	case in.Key == "":
		s.limits = l
	case restore:
		delete(s.keyLimits, in.Key)
	default:
		s.keyLimits[in.Key] = l
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// limitsFor are the limits GET /v1/payment_methods states now to the caller of r: its access token's
// or public key's own, if a test set them, otherwise everyone's.
func (s *Server) limitsFor(r *http.Request) Limits {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, key := range []string{strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), r.URL.Query().Get("public_key")} {
		if l, ok := s.keyLimits[key]; ok && key != "" {
			return l
		}
	}
	return s.limits
}
