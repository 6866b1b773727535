// Package receiver is the sandbox's webhook receiver (issue #20), served by deploy/sandboxcrm: an
// organisation's endpoint for the dev and test stacks, so browser and Go tests watch real
// deliveries and can make an endpoint fail. Box is its client.
package receiver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Receiver keeps what each box at /__webhooks/{box} was posted (in memory) and answers as told:
//
//	POST   /__webhooks/{box}       a delivery: recorded, answered 200 (or as the box's failure plan says)
//	GET    /__webhooks/{box}       {"deliveries": [{"at", "headers", "body", "status"}…]}, oldest first
//	PUT    /__webhooks/{box}/fail  {"status": 500, "times": 2}: the next 2 deliveries answer 500 (times -1: all)
//	DELETE /__webhooks/{box}       forgets the box
type Receiver struct {
	mu    sync.Mutex
	boxes map[string]*box
}

type box struct {
	Deliveries []Received
	failStatus int
	failTimes  int // -1: every delivery
}

// Received is a delivery as the box got it.
type Received struct {
	At      time.Time         `json:"at"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Status  int               `json:"status"` // what the receiver answered
}

const maxBoxes, maxDeliveries = 1000, 500

// New is an empty receiver.
func New() *Receiver { return &Receiver{boxes: map[string]*box{}} }

// Mount serves the receiver's routes on mux.
func (rc *Receiver) Mount(mux *http.ServeMux) {
	mux.HandleFunc("POST /__webhooks/{box}", rc.receive)
	mux.HandleFunc("GET /__webhooks/{box}", rc.list)
	mux.HandleFunc("PUT /__webhooks/{box}/fail", rc.fail)
	mux.HandleFunc("DELETE /__webhooks/{box}", rc.forget)
}

// get answers the box, making it unless there are too many; the caller holds mu.
func (rc *Receiver) get(name string) *box {
	b := rc.boxes[name]
	if b == nil && len(rc.boxes) < maxBoxes {
		b = &box{}
		rc.boxes[name] = b
	}
	return b
}

func (rc *Receiver) receive(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	headers := map[string]string{}
	for k, v := range r.Header {
		if strings.HasPrefix(k, "Aporta-") || k == "Content-Type" || k == "User-Agent" {
			headers[k] = strings.Join(v, ", ")
		}
	}
	rc.mu.Lock()
	b := rc.get(r.PathValue("box"))
	if b == nil {
		rc.mu.Unlock()
		http.Error(w, "too many boxes", http.StatusServiceUnavailable)
		return
	}
	status := http.StatusOK
	if b.failTimes != 0 {
		status = b.failStatus
		if b.failTimes > 0 {
			b.failTimes--
		}
	}
	if len(b.Deliveries) < maxDeliveries {
		b.Deliveries = append(b.Deliveries, Received{At: time.Now().UTC(), Headers: headers, Body: string(body), Status: status})
	}
	rc.mu.Unlock()
	w.WriteHeader(status)
}

func (rc *Receiver) list(w http.ResponseWriter, r *http.Request) {
	rc.mu.Lock()
	out := []Received{}
	if b := rc.boxes[r.PathValue("box")]; b != nil {
		out = append(out, b.Deliveries...)
	}
	rc.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"deliveries": out})
}

func (rc *Receiver) fail(w http.ResponseWriter, r *http.Request) {
	var plan struct {
		Status int `json:"status"`
		Times  int `json:"times"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&plan); err != nil || plan.Status < 100 || plan.Status > 599 || plan.Times < -1 {
		http.Error(w, `want {"status": 100…599, "times": -1 or more}`, http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	b := rc.get(r.PathValue("box"))
	if b == nil {
		http.Error(w, "too many boxes", http.StatusServiceUnavailable)
		return
	}
	b.failStatus, b.failTimes = plan.Status, plan.Times
	w.WriteHeader(http.StatusNoContent)
}

func (rc *Receiver) forget(w http.ResponseWriter, r *http.Request) {
	rc.mu.Lock()
	delete(rc.boxes, r.PathValue("box"))
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}
