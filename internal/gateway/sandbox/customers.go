package sandbox

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

type customer struct {
	ID             string          `json:"id"`
	CollectorID    int64           `json:"collector_id"` // the account whose customer it is
	Email          string          `json:"email"`
	FirstName      string          `json:"first_name"`
	LastName       string          `json:"last_name"`
	Identification *identification `json:"identification,omitempty"`
	DateCreated    time.Time       `json:"date_created"`
}

type savedCard struct {
	ID               string     `json:"id"`
	CollectorID      int64      `json:"collector_id"`
	CustomerID       string     `json:"customer_id"`
	ExpirationMonth  int        `json:"expiration_month"`
	ExpirationYear   int        `json:"expiration_year"`
	FirstSixDigits   string     `json:"first_six_digits"`
	LastFourDigits   string     `json:"last_four_digits"`
	CardNumberLength int        `json:"card_number_length"`
	PaymentMethod    cardMethod `json:"payment_method"`
	Cardholder       cardholder `json:"cardholder"`
	DateCreated      time.Time  `json:"date_created"`
}

type cardMethod struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	PaymentTypeID string `json:"payment_type_id"`
}

func (s *Server) createCustomer(w http.ResponseWriter, r *http.Request, a *account) {
	var in customer
	if !decode(w, r, &in) {
		return
	}
	if !strings.Contains(in.Email, "@") {
		writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: "102", Description: "invalid email"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.customerByEmail(a, in.Email) != nil {
		writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: "101", Description: "the customer already exist"})
		return
	}
	in.ID = strconv.FormatInt(s.newID(), 10) + "-" + randomHex(7)
	in.CollectorID = a.UserID
	in.DateCreated = now()
	s.st.Customers[in.ID] = &in
	s.commit(w, http.StatusCreated, &in, state{Customers: map[string]*customer{in.ID: &in}})
}

// customerByEmail finds one of the account's customers, comparing case-insensitively, as e-mail
// domains are. Callers hold mu.
func (s *Server) customerByEmail(a *account, email string) *customer {
	for _, c := range s.st.Customers {
		if c.CollectorID == a.UserID && strings.EqualFold(c.Email, email) {
			return c
		}
	}
	return nil
}

func (s *Server) searchCustomers(w http.ResponseWriter, r *http.Request, a *account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	results := []*customer{}
	if c := s.customerByEmail(a, r.URL.Query().Get("email")); c != nil {
		results = append(results, c)
	}
	writeJSON(w, http.StatusOK, page(results))
}

// saveCard keeps a token's card on a customer. Saving the same card again
// returns the card already saved, as MercadoPago does.
func (s *Server) saveCard(w http.ResponseWriter, r *http.Request, a *account) {
	var in struct {
		Token string `json:"token"`
	}
	if !decode(w, r, &in) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cust, ok := s.st.Customers[r.PathValue("id")]
	if !ok || cust.CollectorID != a.UserID {
		writeError(w, http.StatusNotFound, "customer not found")
		return
	}
	t, ok := s.token(w, in.Token, a)
	if !ok {
		return
	}
	for _, c := range s.st.Cards {
		if c.CustomerID == cust.ID && c.FirstSixDigits == t.FirstSixDigits && c.LastFourDigits == t.LastFourDigits &&
			c.ExpirationMonth == t.ExpirationMonth && c.ExpirationYear == t.ExpirationYear {
			writeJSON(w, http.StatusOK, c)
			return
		}
	}
	c := &savedCard{
		ID:               strconv.FormatInt(s.newID(), 10),
		CollectorID:      a.UserID,
		CustomerID:       cust.ID,
		ExpirationMonth:  t.ExpirationMonth,
		ExpirationYear:   t.ExpirationYear,
		FirstSixDigits:   t.FirstSixDigits,
		LastFourDigits:   t.LastFourDigits,
		CardNumberLength: t.CardNumberLength,
		PaymentMethod:    savedMethod(t.PaymentMethodID),
		Cardholder:       t.Cardholder,
		DateCreated:      now(),
	}
	s.st.Cards[c.ID] = c
	s.commit(w, http.StatusCreated, c, state{Cards: map[string]*savedCard{c.ID: c}})
}
