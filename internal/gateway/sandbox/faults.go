package sandbox

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Fault makes the next Count money-moving requests (payments, refunds and payouts) fail.
type Fault struct {
	Mode    string `json:"mode"` // "timeout", "error500" or "none"
	Count   int    `json:"count"`
	DelayMS int    `json:"delay_ms"` // how long to hang; for timeouts 30s when zero
	// AfterCommit records the payment before failing the answer: the client
	// cannot tell whether money moved (the "answered twice" case).
	AfterCommit bool `json:"after_commit"`
}

func (s *Server) setFault(w http.ResponseWriter, r *http.Request) {
	var f Fault
	if !decode(w, r, &f) {
		return
	}
	switch f.Mode {
	case "none", "":
		f = Fault{}
	case "timeout", "error500":
		f.Count = max(f.Count, 1)
	default:
		writeError(w, http.StatusBadRequest, `mode must be "timeout", "error500" or "none"`)
		return
	}
	s.mu.Lock()
	s.fault = f
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// lockFault takes mu and consumes one armed fault (POST /__sandbox/faults), if any. A fault armed to
// fail before the commit is answered here, mu released: ok is false. Otherwise mu stays held, and
// after is the fault armed AfterCommit, for the caller to answer once it has released mu.
func (s *Server) lockFault(w http.ResponseWriter, r *http.Request) (after *Fault, ok bool) {
	s.mu.Lock()
	if s.fault.Count == 0 {
		return nil, true
	}
	s.fault.Count--
	f := s.fault
	if !f.AfterCommit {
		s.mu.Unlock()
		s.fail(w, r, f)
		return nil, false
	}
	return &f, true
}

// move is one money-moving request's idempotency: key is the caller's idempotency key scoped to
// its account and endpoint ("" when the request carries none: nothing is replayed), and
// fingerprint identifies the request beyond its key. When fingerprint is set and a later request
// reuses the key with another one, conflict answers it (CentralPos refuses such a reuse;
// MercadoPago replays the first answer whatever the body).
type move struct {
	key, fingerprint string
	conflict         func()
}

// mpMove is a MercadoPago request's idempotency: its X-Idempotency-Key, the account's own (two
// accounts using the same key are two requests).
func mpMove(r *http.Request, a *account) move {
	key := r.Header.Get("X-Idempotency-Key")
	if key == "" {
		return move{}
	}
	k := r.Method + " " + r.URL.Path + " " + key
	if a.UserID != PlatformUserID { // the platform's keys predate accounts and stay as they were
		k = strconv.FormatInt(a.UserID, 10) + " " + k
	}
	return move{key: k}
}

// moveMoney runs a payment or refund under the lock with idempotency and fault
// injection. apply answers errors itself and returns ok=false; on success it
// returns the answer, which is replayed for any later request with the same key.
func (s *Server) moveMoney(w http.ResponseWriter, r *http.Request, m move, apply func() (status int, body any, ok bool)) {
	after, ok := s.lockFault(w, r)
	if !ok {
		return
	}
	answer, replayed := s.st.Replays[m.key]
	if replayed && m.fingerprint != "" && answer.Fingerprint != m.fingerprint {
		s.mu.Unlock()
		m.conflict()
		return
	}
	if m.key == "" || !replayed {
		status, body, ok := apply()
		if !ok {
			s.mu.Unlock()
			return
		}
		data, err := json.Marshal(body)
		if err != nil {
			panic(err) // our own types always marshal
		}
		answer = replay{Status: status, Body: data, Fingerprint: m.fingerprint}
		var delta state
		if m.key != "" {
			s.st.Replays[m.key] = answer
			delta.Replays = map[string]replay{m.key: answer}
		}
		s.touched(&delta, body)
		if err := s.persist(delta); err != nil {
			// Recorded in memory but maybe not on disk: an unknown outcome.
			s.log.Error("sandbox: persist state", "err", err)
			after = &Fault{Mode: "error500"}
		}
	}
	s.mu.Unlock()
	if after != nil {
		s.fail(w, r, *after)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(answer.Status)
	_, _ = w.Write(answer.Body)
}

// touched adds to a journal entry the records a money-moving answer created or changed. Callers hold mu.
func (s *Server) touched(delta *state, body any) {
	switch b := body.(type) {
	case *payment:
		delta.Payments = map[int64]*payment{b.ID: b}
	case refund:
		delta.Payments = map[int64]*payment{b.PaymentID: s.st.Payments[b.PaymentID]}
	case *cpCharge:
		delta.CPCharges = map[string]*cpCharge{b.ID: b}
		if t := s.st.CPTokens[b.token]; t != nil {
			delta.CPTokens = map[string]*cpToken{t.ID: t}
		}
	case *bankDebit:
		delta.Debits = map[string]*bankDebit{b.ID: b}
	case cpRefund:
		delta.CPCharges = map[string]*cpCharge{b.Charge: s.st.CPCharges[b.Charge]}
	}
}

// fail answers like a broken provider, without holding the lock so the rest of
// the sandbox keeps serving while this request hangs.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, f Fault) {
	delay := time.Duration(f.DelayMS) * time.Millisecond
	if f.Mode == "timeout" && delay == 0 {
		delay = 30 * time.Second
	}
	select {
	case <-time.After(delay):
	case <-r.Context().Done(): // the client gave up, as intended
		return
	}
	if f.Mode == "timeout" {
		writeError(w, http.StatusGatewayTimeout, "gateway timeout")
		return
	}
	writeError(w, http.StatusInternalServerError, "internal_error")
}
