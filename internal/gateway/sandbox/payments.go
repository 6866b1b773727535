package sandbox

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/money"
)

type payer struct {
	Type  string `json:"type,omitempty"`
	ID    string `json:"id,omitempty"`
	Email string `json:"email,omitempty"`
}

type paymentCard struct {
	FirstSixDigits  string     `json:"first_six_digits"`
	LastFourDigits  string     `json:"last_four_digits"`
	ExpirationMonth int        `json:"expiration_month"`
	ExpirationYear  int        `json:"expiration_year"`
	Cardholder      cardholder `json:"cardholder"`
}

type refund struct {
	ID          int64       `json:"id"`
	PaymentID   int64       `json:"payment_id"`
	Amount      json.Number `json:"amount"`
	Status      string      `json:"status"`
	DateCreated time.Time   `json:"date_created"`
}

type payment struct {
	ID                        int64          `json:"id"`
	CollectorID               int64          `json:"collector_id"` // the account that took it
	DateCreated               time.Time      `json:"date_created"`
	DateApproved              *time.Time     `json:"date_approved"`
	DateLastUpdated           time.Time      `json:"date_last_updated"`
	Status                    string         `json:"status"`
	StatusDetail              string         `json:"status_detail"`
	TransactionAmount         json.Number    `json:"transaction_amount"`
	TransactionAmountRefunded json.Number    `json:"transaction_amount_refunded"`
	CurrencyID                string         `json:"currency_id"`
	Description               string         `json:"description"`
	Installments              int            `json:"installments"`
	PaymentMethodID           string         `json:"payment_method_id"`
	PaymentTypeID             string         `json:"payment_type_id"`
	ExternalReference         string         `json:"external_reference"`
	Metadata                  map[string]any `json:"metadata"`
	Payer                     payer          `json:"payer"`
	Card                      paymentCard    `json:"card"`
	Refunds                   []refund       `json:"refunds"`
	NotificationURL           string         `json:"notification_url,omitempty"`
}

// outcomes are MercadoPago's test cardholder names (the first word of the
// name). CONT is "in_process" as on the real API. DISA, RISK and BLAC are the
// sandbox's own, to exercise the rejections that pause a monthly donation.
// Any other name is approved, so everyday names work in the dev stack.
var outcomes = map[string][2]string{
	"APRO": {"approved", "accredited"},
	"OTHE": {"rejected", "cc_rejected_other_reason"},
	"CONT": {"in_process", "pending_contingency"},
	"CALL": {"rejected", "cc_rejected_call_for_authorize"},
	"FUND": {"rejected", "cc_rejected_insufficient_amount"},
	"SECU": {"rejected", "cc_rejected_bad_filled_security_code"},
	"EXPI": {"rejected", "cc_rejected_bad_filled_date"},
	"FORM": {"rejected", "cc_rejected_bad_filled_other"},
	"DISA": {"rejected", "cc_rejected_card_disabled"},
	"RISK": {"rejected", "cc_rejected_high_risk"},
	"BLAC": {"rejected", "cc_rejected_blacklist"},
}

// lateDecline is the sandbox's card that starts declining: a cardholder named LATE is approved
// once, and every later payment on the same card (last four and holder) of the same account is
// declined for insufficient funds, as a monthly donation whose card ran dry.
const lateDecline = "LATE"

// startedDeclining says whether a LATE card of the account was approved before.
func (s *Server) startedDeclining(collector int64, c paymentCard) bool {
	first, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(c.Cardholder.Name)), " ")
	if first != lateDecline {
		return false
	}
	for _, p := range s.st.Payments {
		if p.CollectorID == collector && p.Status == "approved" && p.Card.LastFourDigits == c.LastFourDigits &&
			strings.EqualFold(p.Card.Cardholder.Name, c.Cardholder.Name) {
			return true
		}
	}
	return false
}

func outcome(holder string) (status, detail string) {
	first, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(holder)), " ")
	if o, ok := outcomes[first]; ok {
		return o[0], o[1]
	}
	return "approved", "accredited"
}

func (s *Server) createPayment(w http.ResponseWriter, r *http.Request, a *account) {
	var in struct {
		TransactionAmount json.Number    `json:"transaction_amount"`
		Token             string         `json:"token"`
		Description       string         `json:"description"`
		Installments      int            `json:"installments"`
		PaymentMethodID   string         `json:"payment_method_id"`
		Payer             payer          `json:"payer"`
		ExternalReference string         `json:"external_reference"`
		Metadata          map[string]any `json:"metadata"`
		NotificationURL   string         `json:"notification_url"`
	}
	if !decode(w, r, &in) {
		return
	}
	amount, err := money.ParseWire(in.TransactionAmount.String(), a.currency())
	if err != nil || amount.Minor <= 0 {
		writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: 4037, Description: "Invalid transaction_amount"})
		return
	}
	s.moveMoney(w, r, mpMove(r, a), func() (int, any, bool) {
		t, ok := s.token(w, in.Token, a)
		if !ok {
			return 0, nil, false
		}
		if c := s.st.Customers[in.Payer.ID]; in.Payer.Type == "customer" && (c == nil || c.CollectorID != a.UserID) {
			writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: 2002, Description: "Customer not found"})
			return 0, nil, false
		}
		if in.PaymentMethodID != "" && in.PaymentMethodID != t.PaymentMethodID {
			writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: 3034, Description: "Invalid payment_method_id for the card's bin"})
			return 0, nil, false
		}
		status, detail := outcome(t.Cardholder.Name)
		if s.startedDeclining(a.UserID, paymentCard{LastFourDigits: t.LastFourDigits, Cardholder: t.Cardholder}) {
			status, detail = "rejected", "cc_rejected_insufficient_amount"
		}
		p := &payment{
			ID:                        s.newID(),
			CollectorID:               a.UserID,
			DateCreated:               now(),
			Status:                    status,
			StatusDetail:              detail,
			TransactionAmount:         json.Number(amount.Decimal()),
			TransactionAmountRefunded: json.Number(money.Amount{Currency: a.currency()}.Decimal()),
			CurrencyID:                a.currency(),
			Description:               in.Description,
			Installments:              max(in.Installments, 1),
			PaymentMethodID:           t.PaymentMethodID,
			PaymentTypeID:             "credit_card",
			ExternalReference:         in.ExternalReference,
			Metadata:                  in.Metadata,
			Payer:                     in.Payer,
			Card: paymentCard{
				FirstSixDigits:  t.FirstSixDigits,
				LastFourDigits:  t.LastFourDigits,
				ExpirationMonth: t.ExpirationMonth,
				ExpirationYear:  t.ExpirationYear,
				Cardholder:      t.Cardholder,
			},
			Refunds:         []refund{},
			NotificationURL: in.NotificationURL,
		}
		p.DateLastUpdated = p.DateCreated
		if status == "approved" {
			p.DateApproved = &p.DateCreated
		}
		s.st.Payments[p.ID] = p
		return http.StatusCreated, p, true
	})
}

func (s *Server) createRefund(w http.ResponseWriter, r *http.Request, a *account) {
	var in struct {
		Amount json.Number `json:"amount"`
	}
	if r.ContentLength != 0 && !decode(w, r, &in) {
		return
	}
	s.moveMoney(w, r, mpMove(r, a), func() (int, any, bool) {
		p, ok := s.paymentByPath(w, r, a)
		if !ok {
			return 0, nil, false
		}
		total, _ := money.ParseWire(p.TransactionAmount.String(), p.CurrencyID)
		done, _ := money.ParseWire(p.TransactionAmountRefunded.String(), p.CurrencyID)
		left := total.Minor - done.Minor
		amount := money.Amount{Minor: left, Currency: p.CurrencyID}
		if in.Amount != "" {
			var err error
			if amount, err = money.ParseWire(in.Amount.String(), p.CurrencyID); err != nil || amount.Minor <= 0 {
				writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: 4037, Description: "Invalid amount"})
				return 0, nil, false
			}
		}
		if p.Status != "approved" || amount.Minor > left {
			writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: 2063, Description: "The action requested is not valid for the current payment state"})
			return 0, nil, false
		}
		rf := refund{ID: s.newID(), PaymentID: p.ID, Amount: json.Number(amount.Decimal()), Status: "approved", DateCreated: now()}
		p.Refunds = append(p.Refunds, rf)
		p.TransactionAmountRefunded = json.Number(money.Amount{Minor: done.Minor + amount.Minor, Currency: p.CurrencyID}.Decimal())
		p.DateLastUpdated = rf.DateCreated
		p.StatusDetail = "partially_refunded"
		if amount.Minor == left {
			p.Status, p.StatusDetail = "refunded", "refunded"
		}
		s.notify(p)
		return http.StatusCreated, rf, true
	})
}

// paymentByPath finds the account's {id} payment or answers 404 itself, as for another
// account's payment. Callers hold mu.
func (s *Server) paymentByPath(w http.ResponseWriter, r *http.Request, a *account) (*payment, bool) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	p, ok := s.st.Payments[id]
	if ok = ok && p.CollectorID == a.UserID; !ok {
		writeError(w, http.StatusNotFound, "Payment not found")
	}
	return p, ok
}

func (s *Server) getPayment(w http.ResponseWriter, r *http.Request, a *account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.paymentByPath(w, r, a); ok {
		writeJSON(w, http.StatusOK, p)
	}
}

// paymentsFor lists the payments one account took (every account's when userID is 0) with an
// external reference (all when empty), oldest first unless desc. Callers hold mu.
func (s *Server) paymentsFor(userID int64, ref string, desc bool) []*payment {
	out := []*payment{}
	for _, p := range s.st.Payments {
		if (ref == "" || p.ExternalReference == ref) && (userID == 0 || p.CollectorID == userID) {
			out = append(out, p)
		}
	}
	return ordered(out, func(p *payment) int64 { return p.ID }, desc)
}

// ordered sorts records by their creation order (key), oldest first unless desc.
func ordered[T any](records []T, key func(T) int64, desc bool) []T {
	slices.SortFunc(records, func(a, b T) int {
		if desc {
			a, b = b, a
		}
		return cmp.Compare(key(a), key(b))
	})
	return records
}

func (s *Server) searchPayments(w http.ResponseWriter, r *http.Request, a *account) {
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, http.StatusOK, page(s.paymentsFor(a.UserID, q.Get("external_reference"), q.Get("criteria") == "desc")))
}

// adminPayments is for test assertions: a plain list, oldest first, of one account's payments
// when user_id is given.
func (s *Server) adminPayments(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var userID int64
	if v := q.Get("user_id"); v != "" {
		var err error
		if userID, err = strconv.ParseInt(v, 10, 64); err != nil || userID <= 0 {
			writeError(w, http.StatusBadRequest, "user_id must be a positive integer")
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, http.StatusOK, s.paymentsFor(userID, q.Get("external_reference"), false))
}
