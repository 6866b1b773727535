package sandbox

import (
	"encoding/json"
	"net/http"
)

// The dollar MEP quote (internal/mep), in dolarapi.com's shape: GET /mep/v1/dolares/bolsa. Admin,
// for tests: POST /__sandbox/mep {"compra": 1400.25, "venta": 1425.75} sets the quote (dated now).

// DefaultMEP is the quote until a test sets another.
var DefaultMEP = mepQuote{Compra: "1420.50", Venta: "1445.50"}

type mepQuote struct {
	Compra json.Number `json:"compra"`
	Venta  json.Number `json:"venta"`
}

func (s *Server) mepRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /mep/v1/dolares/bolsa", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		q := s.mep
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"moneda": "USD", "casa": "bolsa", "nombre": "Bolsa",
			"compra": q.Compra, "venta": q.Venta, "fechaActualizacion": s.clock().Format("2006-01-02T15:04:05.000Z")})
	})
	m.HandleFunc("POST /__sandbox/mep", func(w http.ResponseWriter, r *http.Request) {
		var q mepQuote
		if !decode(w, r, &q) {
			return
		}
		if _, err := q.Venta.Float64(); err != nil {
			writeError(w, http.StatusBadRequest, "venta must be a number")
			return
		}
		s.mu.Lock()
		s.mep = q
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
}
