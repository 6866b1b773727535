package sandbox

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/aporta/aporta/internal/card"
)

// tokenLifetime is how long MercadoPago card tokens can be used.
const tokenLifetime = 7 * 24 * time.Hour

type identification struct {
	Type   string `json:"type"`
	Number string `json:"number"`
}

type cardholder struct {
	Name           string         `json:"name"`
	Identification identification `json:"identification"`
}

// cardToken is a tokenised card: deliberately no number and no security code.
type cardToken struct {
	ID                 string     `json:"id"`
	CollectorID        int64      `json:"collector_id,omitempty"` // the account whose public key made it; 0: any account's
	PaymentMethodID    string     `json:"payment_method_id"`
	FirstSixDigits     string     `json:"first_six_digits"`
	LastFourDigits     string     `json:"last_four_digits"`
	ExpirationMonth    int        `json:"expiration_month"`
	ExpirationYear     int        `json:"expiration_year"`
	CardNumberLength   int        `json:"card_number_length"`
	SecurityCodeLength int        `json:"security_code_length"`
	Cardholder         cardholder `json:"cardholder"`
	Status             string     `json:"status"`
	DateCreated        time.Time  `json:"date_created"`
	DateDue            time.Time  `json:"date_due"`
}

// cardInput is the card data a tokeniser receives; it is never stored.
type cardInput struct {
	Number       string
	SecurityCode string
	Month, Year  int
	Holder       cardholder
	// codeOptional: the vault tokenises without a security code and checks one only when sent.
	codeOptional bool
}

// createCardToken serves the browser's tokenisation, and the server's
// re-tokenisation of a saved card ({card_id}) for a recurring charge.
func (s *Server) createCardToken(w http.ResponseWriter, r *http.Request) {
	var in struct {
		CardNumber      string     `json:"card_number"`
		SecurityCode    string     `json:"security_code"`
		ExpirationMonth int        `json:"expiration_month"`
		ExpirationYear  int        `json:"expiration_year"`
		Cardholder      cardholder `json:"cardholder"`
		CardID          string     `json:"card_id"`
	}
	if !decode(w, r, &in) {
		return
	}
	a, ok := s.browserCaller(w, r)
	if !ok {
		return
	}
	if in.CardID != "" {
		s.tokenForSavedCard(w, in.CardID, a)
		return
	}
	c := cardInput{Number: in.CardNumber, SecurityCode: in.SecurityCode, Month: in.ExpirationMonth, Year: in.ExpirationYear, Holder: in.Cardholder}
	causes := append(c.check(), checkIdentification(in.Cardholder.Identification)...)
	if len(causes) > 0 {
		writeError(w, http.StatusBadRequest, "invalid parameters", causes...)
		return
	}
	s.issueToken(w, c, a)
}

// vaultToken serves the card vault's tokeniser into the same token store, so a
// vault token can be saved and charged in the sandbox like a MercadoPago one.
func (s *Server) vaultToken(w http.ResponseWriter, r *http.Request) {
	var in struct {
		CountryCode     string `json:"country_code"`
		HolderName      string `json:"holder_name"`
		Key             string `json:"key"`
		PAN             string `json:"pan"`
		ExpirationMonth int    `json:"expiration_month"`
		ExpirationYear  int    `json:"expiration_year"`
		CVV             string `json:"cvv"`
	}
	if !decode(w, r, &in) {
		return
	}
	if in.Key == "" || len(in.CountryCode) != 2 {
		writeError(w, http.StatusBadRequest, "key and a two-letter country_code are required")
		return
	}
	c := cardInput{Number: in.PAN, SecurityCode: in.CVV, Month: in.ExpirationMonth, Year: in.ExpirationYear, Holder: cardholder{Name: in.HolderName}, codeOptional: true}
	if causes := c.check(); len(causes) > 0 {
		writeError(w, http.StatusBadRequest, causes[0].Description, causes...)
		return
	}
	s.issueToken(w, c, nil)
}

// issueToken keeps a token for the caller's account (a nil caller: usable by any account).
func (s *Server) issueToken(w http.ResponseWriter, c cardInput, caller *account) {
	m := methodForBIN(c.Number)
	t := &cardToken{
		ID:                 randomHex(16),
		PaymentMethodID:    m.ID,
		FirstSixDigits:     c.Number[:6],
		LastFourDigits:     c.Number[len(c.Number)-4:],
		ExpirationMonth:    c.Month,
		ExpirationYear:     c.Year,
		CardNumberLength:   len(c.Number),
		SecurityCodeLength: len(c.SecurityCode),
		Cardholder:         c.Holder,
		Status:             "active",
		DateCreated:        now(),
	}
	if caller != nil {
		t.CollectorID = caller.UserID
	}
	t.DateDue = t.DateCreated.Add(tokenLifetime)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Tokens[t.ID] = t
	// The vault's clients read "token"; MercadoPago's read "id". Both are sent.
	s.commit(w, http.StatusCreated, struct {
		*cardToken
		Token     string    `json:"token"`
		ExpiresAt time.Time `json:"expires_at"`
	}{t, t.ID, t.DateDue}, state{Tokens: map[string]*cardToken{t.ID: t}})
}

// tokenForSavedCard re-tokenises one of the caller's saved cards; a server calls it with its
// access token.
func (s *Server) tokenForSavedCard(w http.ResponseWriter, cardID string, caller *account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.st.Cards[cardID]
	if !ok || caller == nil || c.CollectorID != caller.UserID {
		writeError(w, http.StatusNotFound, "card not found")
		return
	}
	t := &cardToken{
		ID:               randomHex(16),
		CollectorID:      caller.UserID,
		PaymentMethodID:  c.PaymentMethod.ID,
		FirstSixDigits:   c.FirstSixDigits,
		LastFourDigits:   c.LastFourDigits,
		ExpirationMonth:  c.ExpirationMonth,
		ExpirationYear:   c.ExpirationYear,
		CardNumberLength: c.CardNumberLength,
		Cardholder:       c.Cardholder,
		Status:           "active",
		DateCreated:      now(),
	}
	t.DateDue = t.DateCreated.Add(tokenLifetime)
	s.st.Tokens[t.ID] = t
	s.commit(w, http.StatusCreated, t, state{Tokens: map[string]*cardToken{t.ID: t}})
}

// token returns a token the account can use or answers the error itself. Callers hold mu.
func (s *Server) token(w http.ResponseWriter, id string, a *account) (*cardToken, bool) {
	t, ok := s.st.Tokens[id]
	if !ok || now().After(t.DateDue) || (t.CollectorID != 0 && t.CollectorID != a.UserID) {
		writeError(w, http.StatusBadRequest, "invalid parameters", cause{Code: 2006, Description: "Card Token not found"})
		return nil, false
	}
	return t, true
}

// check validates card data like MercadoPago's tokeniser, returning its cause
// codes in a fixed order: number, security code, expiry, holder.
func (c cardInput) check() []cause {
	var causes []cause
	m := methodForBIN(c.Number)
	switch {
	case !digitsOnly(c.Number) || m == nil:
		causes = append(causes, cause{Code: "E301", Description: "invalid card_number"})
	case !slices.Contains(m.lengths, len(c.Number)) || (m.luhn && !card.Luhn(c.Number)):
		causes = append(causes, cause{Code: "E301", Description: "invalid card_number"})
	}
	if c.SecurityCode != "" || !c.codeOptional {
		want := 3
		if m != nil {
			want = m.securityCodeLength
		}
		if len(c.SecurityCode) != want || !digitsOnly(c.SecurityCode) {
			causes = append(causes, cause{Code: "E302", Description: "invalid security_code"})
		}
	}
	t := now()
	switch {
	case c.Month < 1 || c.Month > 12:
		causes = append(causes, cause{Code: "325", Description: "invalid expiration_month"})
	case c.Year < t.Year() || c.Year > t.Year()+30:
		causes = append(causes, cause{Code: "326", Description: "invalid expiration_year"})
	case c.Year == t.Year() && c.Month < int(t.Month()):
		causes = append(causes, cause{Code: "325", Description: "card expired"})
	}
	if c.Holder.Name == "" {
		causes = append(causes, cause{Code: "316", Description: "invalid cardholder.name"})
	}
	return causes
}

// documentTypes are the donor document types of the spec (§3).
var documentTypes = []string{"CC", "CE", "CI", "CUIL", "CUIT", "DNI", "LC", "LE", "NIT", "Otro", "RFC", "RUC", "RUT"}

func checkIdentification(id identification) []cause {
	switch {
	case id.Type == "" && id.Number == "":
		return []cause{{Code: "212", Description: "cardholder.identification is required"}}
	case id.Number == "":
		return []cause{{Code: "214", Description: "cardholder.identification.number is required"}}
	case !slices.Contains(documentTypes, id.Type):
		return []cause{{Code: "322", Description: "invalid cardholder.identification.type"}}
	case len(id.Number) < 3 || len(id.Number) > 20 || !digitsOnly(id.Number):
		return []cause{{Code: "324", Description: "invalid cardholder.identification.number"}}
	}
	return nil
}

func digitsOnly(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// method is a card brand: which BINs it owns and what its numbers look like.
type method struct {
	ID                 string
	Name               string
	ranges             [][2]int // inclusive ranges of the first six digits
	lengths            []int
	securityCodeLength int
	codeLocation       string
	luhn               bool
}

// methods is checked in order, so narrow brands come before the wide prefixes
// they sit in (elo inside visa's 4…, hipercard's 3841 inside diners' 38…).
var methods = []method{
	{ID: "elo", Name: "Elo", lengths: []int{16}, securityCodeLength: 3, codeLocation: "back", luhn: true, ranges: [][2]int{
		{401178, 401179}, {431274, 431274}, {438935, 438935}, {451416, 451416}, {457393, 457393}, {457631, 457632},
		{504175, 504175}, {506699, 506778}, {509000, 509999}, {627780, 627780}, {636297, 636297}, {636368, 636368},
		{650031, 650033}, {650035, 650051}, {650405, 650439}, {650485, 650538}, {650541, 650598}, {650700, 650718},
		{650720, 650727}, {650901, 650920}, {651652, 651679}, {655000, 655019}, {655021, 655058},
	}},
	// Naranja numbers carry no Luhn check digit (spec §5).
	{ID: "naranja", Name: "Naranja", lengths: []int{16}, securityCodeLength: 3, codeLocation: "back", ranges: [][2]int{{589562, 589562}}},
	{ID: "hipercard", Name: "Hipercard", lengths: []int{13, 16, 19}, securityCodeLength: 3, codeLocation: "back", luhn: true, ranges: [][2]int{{606282, 606282}, {384100, 384199}}},
	{ID: "cabal", Name: "Cabal", lengths: []int{16}, securityCodeLength: 3, codeLocation: "back", luhn: true, ranges: [][2]int{{604000, 604999}, {589657, 589657}}},
	{ID: "amex", Name: "American Express", lengths: []int{15}, securityCodeLength: 4, codeLocation: "front", luhn: true, ranges: [][2]int{{340000, 349999}, {370000, 379999}}},
	{ID: "diners", Name: "Diners", lengths: []int{14}, securityCodeLength: 3, codeLocation: "back", luhn: true, ranges: [][2]int{{300000, 305999}, {360000, 369999}, {380000, 389999}}},
	// 503175 is the BIN of MercadoPago's published Argentine test Mastercard.
	{ID: "master", Name: "Mastercard", lengths: []int{16}, securityCodeLength: 3, codeLocation: "back", luhn: true, ranges: [][2]int{{510000, 559999}, {222100, 272099}, {503175, 503175}}},
	{ID: "visa", Name: "Visa", lengths: []int{13, 16}, securityCodeLength: 3, codeLocation: "back", luhn: true, ranges: [][2]int{{400000, 499999}}},
}

// methodForBIN finds the brand for a number or BIN (at least six digits).
func methodForBIN(number string) *method {
	if len(number) < 6 {
		return nil
	}
	bin, err := strconv.Atoi(number[:6])
	if err != nil {
		return nil
	}
	for i := range methods {
		for _, r := range methods[i].ranges {
			if bin >= r[0] && bin <= r[1] {
				return &methods[i]
			}
		}
	}
	return nil
}

func methodName(id string) string {
	if i := slices.IndexFunc(methods, func(m method) bool { return m.ID == id }); i >= 0 {
		return methods[i].Name
	}
	return id
}

// methodJSON is MercadoPago's payment method shape (the fields the form uses).
func (m *method) methodJSON() map[string]any {
	validation := "none"
	if m.luhn {
		validation = "standard"
	}
	return map[string]any{
		"id":              m.ID,
		"name":            m.Name,
		"payment_type_id": "credit_card",
		"status":          "active",
		"settings": []map[string]any{{
			"card_number":   map[string]any{"length": m.lengths[len(m.lengths)-1], "validation": validation},
			"security_code": map[string]any{"length": m.securityCodeLength, "card_location": m.codeLocation, "mode": "mandatory"},
		}},
		"additional_info_needed": []string{"cardholder_name", "cardholder_identification_type", "cardholder_identification_number"},
	}
}

// paymentMethodsFor are the card brands of a MercadoPago site (MLA, MLB, …), the calling account's
// (callerSite). For now every site shares the one table above.
func paymentMethodsFor(site string) []method {
	return methods
}

func (s *Server) listPaymentMethods(w http.ResponseWriter, r *http.Request) {
	site, ok := s.callerSite(w, r)
	if !ok {
		return
	}
	methods := paymentMethodsFor(site)
	out := make([]map[string]any, 0, len(methods))
	l := s.limitsFor(r)
	for i := range methods {
		m := methods[i].methodJSON()
		m["min_allowed_amount"], m["max_allowed_amount"] = l.Min, l.Max
		out = append(out, m)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) searchPaymentMethods(w http.ResponseWriter, r *http.Request) {
	bin := r.URL.Query().Get("bins")
	if len(bin) < 6 || !digitsOnly(bin) {
		writeError(w, http.StatusBadRequest, "bins must be at least six digits")
		return
	}
	site, ok := s.callerSite(w, r)
	if !ok {
		return
	}
	results := []map[string]any{}
	if m := methodForBIN(bin); m != nil && slices.ContainsFunc(paymentMethodsFor(site), func(x method) bool { return x.ID == m.ID }) {
		results = append(results, m.methodJSON())
	}
	writeJSON(w, http.StatusOK, page(results))
}

// page wraps results in MercadoPago's search envelope.
func page[T any](results []T) map[string]any {
	return map[string]any{
		"paging":  map[string]int{"total": len(results), "limit": len(results), "offset": 0},
		"results": results,
	}
}
