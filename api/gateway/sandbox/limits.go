package sandbox

import "net/http"

// Limits are the card payment limits GET /v1/payment_methods states for every method, in major
// units of the account's currency (MercadoPago's min_allowed_amount and max_allowed_amount).
// Tests change them with POST /__sandbox/limits {"min": 50, "max": 5000}; {} restores the defaults.
type Limits struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// DefaultLimits are the donation form's defaults (donor spec §9).
var DefaultLimits = Limits{Min: 10, Max: 8000}

func (s *Server) setLimits(w http.ResponseWriter, r *http.Request) {
	var l Limits
	if !decode(w, r, &l) {
		return
	}
	if l == (Limits{}) {
		l = DefaultLimits
	}
	if l.Min <= 0 || l.Max < l.Min {
		writeError(w, http.StatusBadRequest, "min must be positive and max at least min")
		return
	}
	s.mu.Lock()
	s.limits = l
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// currentLimits are the limits GET /v1/payment_methods states now.
func (s *Server) currentLimits() Limits {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limits
}
