package sandbox

import (
	"bytes"
	"encoding/json"
	"html/template"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/money"
)

// dLocal's off-site bank transfers (the REDIRECT flow, e.g. PSE in Colombia): the merchant creates a
// payment naming the payer's bank, document and person type; dLocal answers it PENDING with a
// redirect_url, where the payer approves or rejects it at their bank; dLocal then posts the payment to
// the merchant's notification_url, signed like a request (X-Date, X-Login, Authorization
// "V2-HMAC-SHA256, Signature: <hex HMAC-SHA256 of X-Login + X-Date + body with the merchant's secret
// key>"), and sends the payer back to the callback_url. The payment reads back PAID or REJECTED.
//
//	POST /dlocal/payments   signed {amount,currency,country,payment_method_id:"PC",payment_method_flow:"REDIRECT",
//	                        payer{name,email,document,document_type,user_type:"NATURAL"|"JURIDICAL"},
//	                        bank_transfer{bank_code},order_id,description,notification_url,callback_url}
//	                        → {id,status:"PENDING",status_code:"100",redirect_url,…}; order_id is the idempotency key
//	GET  /dlocal/bank/{id}  the "bank" page the payer approves or rejects the payment on
//	POST /dlocal/bank/{id}  decision=approve|reject: settles a pending payment, notifies, redirects to callback_url
//	GET  /__sandbox/dlocal/notifications?payment_id=   tests: the notifications sent for a payment, as sent
//	                        ({url, headers{X-Date,X-Login,Authorization}, body, status}), to replay them

// dlBankMethods are the bank transfers dLocal offers per country (GET /payments-methods lists them).
var dlBankMethods = map[string]dlBankMethod{
	"CO": {ID: "PC", Name: "PSE"},
}

type dlBankMethod struct{ ID, Name string }

// dlBankTransfer is a bank transfer's part of a payment.
type dlBankTransfer struct {
	BankCode        string `json:"bank_code"`
	UserType        string `json:"user_type"`
	NotificationURL string `json:"notification_url"`
	CallbackURL     string `json:"callback_url"`
}

// dlNotice is one notification as the sandbox sent it.
type dlNotice struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Status  int               `json:"status"` // the merchant's answer; 0: none
}

var dlBankCode = regexp.MustCompile(`^[0-9]{3,5}$`)

func (s *Server) dlBankRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /dlocal/bank/{id}", s.dlBankPage)
	m.HandleFunc("POST /dlocal/bank/{id}", s.dlBankDecide)
	m.HandleFunc("GET /__sandbox/dlocal/notifications", s.dlNotifications)
}

// dlBankMethodsOf lists the country's bank transfers as GET /payments-methods does.
func dlBankMethodsOf(country string) []map[string]any {
	b, ok := dlBankMethods[country]
	if !ok {
		return nil
	}
	return []map[string]any{{"id": b.ID, "name": b.Name, "type": "BANK_TRANSFER", "flow": "REDIRECT"}}
}

// dlCreateBankPayment is POST /payments with payment_method_flow REDIRECT.
func (s *Server) dlCreateBankPayment(w http.ResponseWriter, r *http.Request, m *dlMerchant, body []byte) {
	var in struct {
		Amount   json.Number `json:"amount"`
		Currency string      `json:"currency"`
		Country  string      `json:"country"`
		MethodID string      `json:"payment_method_id"`
		Payer    struct {
			Name         string `json:"name"`
			Email        string `json:"email"`
			Document     string `json:"document"`
			DocumentType string `json:"document_type"`
			UserType     string `json:"user_type"`
		} `json:"payer"`
		BankTransfer struct {
			BankCode string `json:"bank_code"`
		} `json:"bank_transfer"`
		OrderID         string `json:"order_id"`
		Description     string `json:"description"`
		NotificationURL string `json:"notification_url"`
		CallbackURL     string `json:"callback_url"`
	}
	if !dlDecode(w, body, &in) {
		return
	}
	amount, ok := s.dlOrderAmount(w, m, in.OrderID, in.Amount, in.Currency, in.Country)
	currency := amount.Currency
	method, offered := dlBankMethods[m.Country]
	switch {
	case !ok:
		return
	case !offered || in.MethodID != method.ID:
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: payment_method_id", "payment_method_id")
		return
	case !dlBankCode.MatchString(in.BankTransfer.BankCode):
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: bank_transfer.bank_code", "bank_transfer.bank_code")
		return
	case in.Payer.UserType != "NATURAL" && in.Payer.UserType != "JURIDICAL":
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: payer.user_type", "payer.user_type")
		return
	case in.Payer.Email == "" || in.Payer.Document == "" || in.Payer.DocumentType == "":
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: payer.email, payer.document and payer.document_type", "payer.document")
		return
	case !strings.HasPrefix(in.NotificationURL, "http") || !strings.HasPrefix(in.CallbackURL, "http"):
		dlError(w, http.StatusBadRequest, 5001, "Invalid param: notification_url and callback_url", "callback_url")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.dlOrder(m, in.OrderID); p != nil { // order_id is the idempotency key
		writeJSON(w, http.StatusOK, p)
		return
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	p := &dlPayment{ID: "D-" + randomHex(10), Seq: s.newID(), Merchant: m.Login, Amount: amount.Decimal(), Currency: currency,
		Country: m.Country, Status: "PENDING", StatusCode: "100", StatusDetail: "The payment is pending.", OrderID: in.OrderID,
		Description: in.Description, PaymentMethodID: method.ID,
		Payer: dlPayer{Name: in.Payer.Name, Email: in.Payer.Email, Document: in.Payer.Document},
		BankTransfer: &dlBankTransfer{BankCode: in.BankTransfer.BankCode, UserType: in.Payer.UserType,
			NotificationURL: in.NotificationURL, CallbackURL: in.CallbackURL},
		CreatedDate: now()}
	// The bank's page, at the address the merchant reached the sandbox by (the payer's browser reaches it too).
	p.RedirectURL = scheme + "://" + r.Host + "/dlocal/bank/" + p.ID
	s.st.DLPayments[p.ID] = p
	s.commit(w, http.StatusOK, p, state{DLPayments: map[string]*dlPayment{p.ID: p}})
}

// dlBankPayment is a pending or settled bank transfer, nil when id names none. Callers hold mu.
func (s *Server) dlBankPayment(id string) (*dlPayment, *dlMerchant) {
	p := s.st.DLPayments[id]
	if p == nil || p.BankTransfer == nil {
		return nil, nil
	}
	return p, s.st.DLMerchants[p.Merchant]
}

func (s *Server) dlBankPage(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	p, m := s.dlBankPayment(r.PathValue("id"))
	var view map[string]any
	if p != nil && m != nil {
		view = map[string]any{"Payment": p, "Merchant": m.Name, "Pending": p.Status == "PENDING"}
	}
	s.mu.Unlock()
	if view == nil {
		http.Error(w, "payment not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = dlBankPage.Execute(w, view)
}

// dlBankDecide settles a pending transfer as the payer decided, notifies the merchant and sends the
// payer back to the merchant's callback_url. A settled payment keeps its status.
func (s *Server) dlBankDecide(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	p, m := s.dlBankPayment(r.PathValue("id"))
	if p == nil || m == nil {
		s.mu.Unlock()
		http.Error(w, "payment not found", http.StatusNotFound)
		return
	}
	if p.Status == "PENDING" {
		if r.FormValue("decision") == "approve" {
			a, _ := money.ParseWire(p.Amount, p.Currency) // written by Decimal
			p.Status, p.StatusCode, p.StatusDetail = "PAID", "200", "The payment was paid."
			p.Fee = money.New((a.Minor*m.FeeBps+5000)/10000, p.Currency).Decimal() // half up
		} else {
			p.Status, p.StatusCode, p.StatusDetail = "REJECTED", "300", "The payment was rejected."
		}
		if err := s.persist(state{DLPayments: map[string]*dlPayment{p.ID: p}}); err != nil {
			s.mu.Unlock()
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.dlNotify(p, m)
	}
	back := p.BankTransfer.CallbackURL
	s.mu.Unlock()
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// dlNotify posts the payment to the merchant's notification_url, signed with its secret key, in the
// background and outside the lock, retrying as dLocal does until answered 2xx. Callers hold mu.
func (s *Server) dlNotify(p *dlPayment, m *dlMerchant) {
	body, _ := json.Marshal(p)
	target, login, secret := p.BankTransfer.NotificationURL, m.Login, m.Secret
	id := p.ID
	go func() {
		for _, wait := range notifyRetries {
			time.Sleep(wait)
			date := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
			n := dlNotice{URL: target, Body: string(body), Headers: map[string]string{"X-Date": date, "X-Login": login,
				"Authorization": dlocal.Signature(login, date, secret, body)}}
			req, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(body))
			if err != nil {
				return
			}
			req.Header.Set("Content-Type", "application/json")
			for k, v := range n.Headers {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				res.Body.Close()
				n.Status = res.StatusCode
			}
			s.mu.Lock()
			if q := s.st.DLPayments[id]; q != nil {
				q.notices = append(q.notices, n)
			}
			s.mu.Unlock()
			if err == nil && res.StatusCode/100 == 2 {
				return
			}
			s.log.Warn("sandbox: dlocal notification not taken", "payment", id, "url", target, "status", n.Status, "err", err)
		}
	}()
}

func (s *Server) dlNotifications(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []dlNotice{}
	if p := s.st.DLPayments[r.URL.Query().Get("payment_id")]; p != nil {
		out = append(out, p.notices...)
	}
	writeJSON(w, http.StatusOK, out)
}

// dlBankPage is the payer's bank, as a PSE bank's approval page would ask.
var dlBankPage = template.Must(template.New("bank").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Banco (sandbox) · {{.Merchant}}</title>
<style>body{font-family:sans-serif;margin:0;background:#eef2f7;color:#1b1b1b}main{max-width:28rem;margin:2rem auto;background:#fff;
padding:1.5rem;border-radius:.75rem;box-shadow:0 1px 4px #0002}h1{font-size:1.3rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}
dt{color:#555}dd{margin:0;font-weight:600}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}
button{flex:1;min-width:8rem;padding:.8rem 1rem;font-size:1rem;border-radius:.5rem;border:0;cursor:pointer}
.approve{background:#1a7f37;color:#fff}.reject{background:#fff;color:#a40e26;border:2px solid #a40e26}</style>
</head><body><main>
<p><small>Sandbox: ningún dinero real se mueve.</small></p>
<h1>Banco {{.Payment.BankTransfer.BankCode}} · pago a {{.Merchant}}</h1>
<dl>
<dt>Monto</dt><dd data-field="amount">{{.Payment.Amount}} {{.Payment.Currency}}</dd>
<dt>Concepto</dt><dd>{{.Payment.Description}}</dd>
<dt>Documento</dt><dd>{{.Payment.Payer.Document}}</dd>
<dt>Persona</dt><dd>{{.Payment.BankTransfer.UserType}}</dd>
<dt>Estado</dt><dd data-field="status">{{.Payment.Status}}</dd>
</dl>
{{if .Pending}}<form method="post" class="actions">
<button class="approve" name="decision" value="approve">Aprobar el pago</button>
<button class="reject" name="decision" value="reject">Rechazar</button>
</form>{{end}}
</main></body></html>`))
