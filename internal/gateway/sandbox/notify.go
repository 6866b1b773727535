package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/aporta/aporta/internal/gateway/mercadopago"
)

// DefaultWebhookSecret is the secret signature the sandbox signs MercadoPago notifications with
// (the application's, in MercadoPago's panel); internal/config's default matches it.
const DefaultWebhookSecret = "TEST-aporta-webhook-secret"

// notifyRetries are the waits before each delivery of a notification, as MercadoPago retries one
// that was not answered 200 or 201.
var notifyRetries = []time.Duration{0, time.Second, 5 * time.Second, 15 * time.Second, time.Minute}

// notify posts MercadoPago's "payment.updated" notification for p to its notification_url, signed,
// in the background and outside the lock. Callers hold mu.
func (s *Server) notify(p *payment) {
	if p.NotificationURL == "" {
		return
	}
	target, err := url.Parse(p.NotificationURL)
	if err != nil {
		return
	}
	id := strconv.FormatInt(p.ID, 10)
	q := target.Query()
	q.Set("data.id", id)
	q.Set("type", "payment")
	target.RawQuery = q.Encode()
	body, _ := json.Marshal(map[string]any{
		"id": s.newID(), "live_mode": false, "type": "payment", "action": "payment.updated", "api_version": "v1",
		"date_created": now(), "user_id": strconv.FormatInt(p.CollectorID, 10), "data": map[string]string{"id": id},
	})
	requestID := randomHex(16)
	go func() {
		for _, wait := range notifyRetries {
			time.Sleep(wait)
			req, err := http.NewRequest(http.MethodPost, target.String(), bytes.NewReader(body))
			if err != nil {
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("x-request-id", requestID)
			req.Header.Set("x-signature", mercadopago.Sign(s.webhookSecret, id, requestID, time.Now()))
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				res.Body.Close()
				if res.StatusCode == http.StatusOK || res.StatusCode == http.StatusCreated {
					return
				}
			}
			s.log.Warn("sandbox: notification not taken", "payment", id, "url", p.NotificationURL, "err", err)
		}
	}()
}

// chargeback is POST /__sandbox/payments/{id}/chargeback: the card's bank took an approved payment
// back. The payment becomes charged_back and its notification goes out.
func (s *Server) chargeback(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.st.Payments[id]
	if !ok || p.Status != "approved" {
		writeError(w, http.StatusNotFound, "no approved payment with that id")
		return
	}
	p.Status, p.StatusDetail, p.DateLastUpdated = "charged_back", "settled", now()
	if err := s.persist(state{Payments: map[int64]*payment{p.ID: p}}); err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.notify(p)
	writeJSON(w, http.StatusOK, p)
}
