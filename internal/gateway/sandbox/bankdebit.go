package sandbox

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The bank-debit network (CBU direct debit, issue #14): the platform submits a debit against a
// payer's mandate and the bank decides it later. Its protocol is its own, not MercadoPago's:
//
//	POST /bankdebit/v1/debits       {mandate_id, cbu, amount_minor, currency, reference, description}
//	                                with Idempotency-Key (required) → 201 the debit, status "submitted"
//	GET  /bankdebit/v1/debits/{id}  → the debit
//	GET  /bankdebit/v1/debits?reference=  → {"results": [...]} oldest first
//
// A submitted debit is decided when it is first read at least DebitSettle after its submission
// (the bank's clearing): "confirmed", or "rejected" with a reason. The outcome is the CBU's next
// armed one (admin POST /__sandbox/bankdebit/outcomes {cbu, outcomes: ["rejected:insufficient_funds"]}),
// else confirmed. Submissions go through the same faults and idempotency as payments (faults.go);
// the access token is the platform's or a seller's, each seeing only its own debits.

// DebitSettle is how long a debit stays submitted before a read decides it (zero: the first read).
var DebitSettle time.Duration

type bankDebit struct {
	ID          string     `json:"id"`
	CollectorID int64      `json:"collector_id"`
	MandateID   string     `json:"mandate_id"`
	CBU         string     `json:"cbu"`
	AmountMinor int64      `json:"amount_minor"`
	Currency    string     `json:"currency"`
	Reference   string     `json:"reference"`
	Description string     `json:"description"`
	Status      string     `json:"status"` // submitted, confirmed, rejected
	Reason      string     `json:"reason,omitempty"`
	SubmittedAt time.Time  `json:"submitted_at"`
	DecidedAt   *time.Time `json:"decided_at,omitempty"`
}

func (s *Server) bankDebitRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /bankdebit/v1/debits", s.private(s.submitDebit))
	m.HandleFunc("GET /bankdebit/v1/debits", s.private(s.searchDebits))
	m.HandleFunc("GET /bankdebit/v1/debits/{id}", s.private(s.getDebit))
	m.HandleFunc("POST /__sandbox/bankdebit/outcomes", s.armDebitOutcomes)
}

func (s *Server) submitDebit(w http.ResponseWriter, r *http.Request, a *account) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		writeError(w, http.StatusBadRequest, "Idempotency-Key is required")
		return
	}
	var d bankDebit
	if !decode(w, r, &d) {
		return
	}
	switch {
	case !validCBU(d.CBU):
		writeError(w, http.StatusBadRequest, "cbu must be 22 digits")
		return
	case d.MandateID == "" || d.Reference == "":
		writeError(w, http.StatusBadRequest, "mandate_id and reference are required")
		return
	case d.AmountMinor <= 0 || len(d.Currency) != 3:
		writeError(w, http.StatusBadRequest, "amount_minor must be positive and currency an ISO 4217 code")
		return
	}
	m := move{key: strconv.FormatInt(a.UserID, 10) + " POST /bankdebit/v1/debits " + key}
	s.moveMoney(w, r, m, func() (int, any, bool) {
		d.ID = "dd_" + strconv.FormatInt(s.newID(), 10)
		d.CollectorID, d.Status, d.Reason, d.SubmittedAt, d.DecidedAt = a.UserID, "submitted", "", now(), nil
		s.st.Debits[d.ID] = &d
		return http.StatusCreated, &d, true
	})
}

func validCBU(cbu string) bool {
	return len(cbu) == 22 && strings.Trim(cbu, "0123456789") == ""
}

func (s *Server) getDebit(w http.ResponseWriter, r *http.Request, a *account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.st.Debits[r.PathValue("id")]
	if d == nil || d.CollectorID != a.UserID {
		writeError(w, http.StatusNotFound, "debit not found")
		return
	}
	s.settle(w, []*bankDebit{d}, d)
}

func (s *Server) searchDebits(w http.ResponseWriter, r *http.Request, a *account) {
	ref := r.URL.Query().Get("reference")
	if ref == "" {
		writeError(w, http.StatusBadRequest, "reference is required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []*bankDebit
	for _, d := range s.st.Debits {
		if d.CollectorID == a.UserID && d.Reference == ref {
			found = append(found, d)
		}
	}
	slices.SortFunc(found, func(x, y *bankDebit) int {
		return cmp.Or(x.SubmittedAt.Compare(y.SubmittedAt), strings.Compare(x.ID, y.ID))
	})
	if found == nil {
		found = []*bankDebit{}
	}
	s.settle(w, found, map[string]any{"results": found})
}

// settle decides the submitted debits among ds whose clearing time has passed, persists them and
// answers body. Callers hold mu.
func (s *Server) settle(w http.ResponseWriter, ds []*bankDebit, body any) {
	var delta state
	for _, d := range ds {
		if d.Status != "submitted" || s.clock().Sub(d.SubmittedAt) < DebitSettle {
			continue
		}
		t := now()
		d.Status, d.DecidedAt = "confirmed", &t
		if queue := s.st.DebitOutcomes[d.CBU]; len(queue) > 0 {
			next := queue[0]
			if len(queue) == 1 {
				delete(s.st.DebitOutcomes, d.CBU)
			} else {
				s.st.DebitOutcomes[d.CBU] = queue[1:]
			}
			status, reason, _ := strings.Cut(next, ":")
			d.Status, d.Reason = status, reason
		}
		if delta.Debits == nil {
			delta.Debits, delta.DebitOutcomes = map[string]*bankDebit{}, map[string][]string{}
		}
		delta.Debits[d.ID] = d
		delta.DebitOutcomes[d.CBU] = s.st.DebitOutcomes[d.CBU] // nil: none left
	}
	s.commit(w, http.StatusOK, body, delta)
}

// armDebitOutcomes queues the next outcomes of a CBU's debits: "confirmed" or "rejected[:reason]".
func (s *Server) armDebitOutcomes(w http.ResponseWriter, r *http.Request) {
	var in struct {
		CBU      string   `json:"cbu"`
		Outcomes []string `json:"outcomes"`
	}
	if !decode(w, r, &in) {
		return
	}
	if !validCBU(in.CBU) {
		writeError(w, http.StatusBadRequest, "cbu must be 22 digits")
		return
	}
	for i, o := range in.Outcomes {
		status, reason, _ := strings.Cut(o, ":")
		switch status {
		case "confirmed":
			in.Outcomes[i] = status
		case "rejected":
			in.Outcomes[i] = status + ":" + cmp.Or(reason, "insufficient_funds")
		default:
			writeError(w, http.StatusBadRequest, `outcomes are "confirmed" or "rejected[:reason]"`)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.DebitOutcomes[in.CBU] = append(s.st.DebitOutcomes[in.CBU], in.Outcomes...)
	s.commit(w, http.StatusNoContent, nil, state{DebitOutcomes: map[string][]string{in.CBU: s.st.DebitOutcomes[in.CBU]}})
}
