package sandbox

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/gateway"
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
	causes := append(c.check(s.siteOf(a)), checkIdentification(in.Cardholder.Identification)...)
	if len(causes) > 0 {
		writeError(w, http.StatusBadRequest, "invalid parameters", causes...)
		return
	}
	s.issueToken(w, c, a, s.siteOf(a))
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
	if causes := c.check(s.siteOfCountry(in.CountryCode)); len(causes) > 0 {
		writeError(w, http.StatusBadRequest, causes[0].Description, causes...)
		return
	}
	s.issueToken(w, c, nil, s.siteOfCountry(in.CountryCode))
}

// issueToken keeps a token for the caller's account (a nil caller: usable by any account), its
// brand detected from the BIN patterns of the site the card was checked for.
func (s *Server) issueToken(w http.ResponseWriter, c cardInput, caller *account, site string) {
	m, _ := methodForBIN(site, c.Number) // check found it
	t := &cardToken{
		ID:                 randomHex(16),
		PaymentMethodID:    string(m.Brand),
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

// check validates card data like MercadoPago's tokeniser, by the site's payment methods (brand,
// length, Luhn, security code length), returning its cause codes in a fixed order: number,
// security code, expiry, holder.
func (c cardInput) check(site string) []cause {
	var causes []cause
	m, found := methodForBIN(site, c.Number)
	if !found || !m.ValidNumber(c.Number) {
		causes = append(causes, cause{Code: "E301", Description: "invalid card_number"})
	}
	if c.SecurityCode != "" || !c.codeOptional {
		if !found {
			m.CVVLength = 3
		}
		if !m.ValidCVV(c.SecurityCode) {
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

// method is a card brand as GET /v1/payment_methods states it for a site: the BIN patterns
// (regular expressions over the number's leading digits, pattern minus exclusion) decide which
// numbers are the brand's.
type method struct {
	ID, Name, PaymentType string
	Pattern, Exclusion    string
	Lengths               []int
	SecurityCodeLength    int
	CodeLocation          string // front, back
	Luhn                  bool   // card_number.validation: standard (true) or none
}

// Patterns shared by several sites. Master's leading "5" and "2221–2720" are Mastercard's ranges;
// each site excludes from them the BINs its local or debit brands own, as MercadoPago's patterns do.
const (
	masterPattern = `^(5|(2(22[1-9]|2[3-9][0-9]|[3-6][0-9]{2}|7[01][0-9]|720)))`
	amexPattern   = `^((34)|(37))`
	dinersPattern = `^((30[0-5])|(36)|(38))`
	// arDebVisa are the Argentine Visa Débito BINs (the local acquirer's list; 400276 is the BIN of
	// MercadoPago's published Argentine debit Visa test card).
	arDebVisa = `^(400276|400448|400615|402789|402914|404625|405069|405511|405515|405516|405517|405755|405896|405897|406290|406291|406375|406652|406998|406999|408515|410082|410083|410121|410123|410853|411849|417309|421738|423623|428062|428063|428064|434795|437996|439818|442371|442548|444060|446343|446344|446345|446346|446347|450412|450799|451377|451701|451751|451756|451757|451758|451761|451763|451764|451765|451766|451767|451768|451769|451770|451772|451773|457308|457596|459300|462815|463465|468508|473227|473710|473711|473712|473713|473714|473715|473716|473717|473718|473719|473720|473721|473722|473725|477051|477053|481397|481501|481502|481550|483002|483020|483188|489412|492528|499859)`
	arMaestro = `^(501041|501043|501045|501051|501053|501060|501062|501063|501066|501070|501075|501078|501081|501082|501084|501105|501107|501108)`
	arCabal   = `^((627170)|(589657)|(603522)|(604((20[1-9])|(2[1-9][0-9])|(3[0-9]{2})|(400))))`
	brElo     = `^((401178|401179|431274|438935|451416|457393|457631|457632|504175|627780|636297|636368)|(506699|5067[0-6][0-9]|50677[0-8])|(509[0-9]{3})|(65003[1-3])|(65003[5-9]|65004[0-9]|65005[01])|(65040[5-9]|6504[1-3][0-9])|(65048[5-9]|65049[0-9]|6505[0-2][0-9]|65053[0-8])|(65054[1-9]|6505[5-8][0-9]|65059[0-8])|(65070[0-9]|65071[0-8])|(65072[0-7])|(65090[1-9]|65091[0-9]|650920)|(65165[2-9]|6516[6-7][0-9])|(65500[0-9]|65501[0-9])|(65502[1-9]|6550[3-4][0-9]|65505[0-8]))`
	uyOCA     = `^(542991|549530|549564|549571|549576|589892)`
)

func credit(id, name, pattern, exclusion string, lengths ...int) method {
	return method{ID: id, Name: name, PaymentType: "credit_card", Pattern: pattern, Exclusion: exclusion,
		Lengths: lengths, SecurityCodeLength: 3, CodeLocation: "back", Luhn: true}
}

func debit(id, name, pattern string) method {
	m := credit(id, name, pattern, "", 16)
	m.PaymentType = "debit_card"
	return m
}

var (
	amex   = method{ID: "amex", Name: "American Express", PaymentType: "credit_card", Pattern: amexPattern, Lengths: []int{15}, SecurityCodeLength: 4, CodeLocation: "front", Luhn: true}
	diners = credit("diners", "Diners", dinersPattern, "", 14)
)

// sitePaymentMethods are the card methods of each MercadoPago site. Every card of MercadoPago's
// published test-card tables (AR, BR, CL, CO, MX, PE, UY; credit and debit) matches exactly one,
// the brand MercadoPago names it with (internal/gateway/mercadopago tests this). The debit BIN
// lists outside Argentina hold the BINs of those published debit cards, not MercadoPago's full lists.
var sitePaymentMethods = map[string][]method{
	"MLA": {
		credit("visa", "Visa", `^4`, arDebVisa, 16),
		credit("master", "Mastercard", masterPattern, `^(517562|528733|536468|547385|551238|554730|554741|589562|589657|501[01][0-9]{2})`, 16),
		amex,
		diners,
		debit("debvisa", "Visa Débito", arDebVisa),
		debit("debmaster", "Mastercard Débito", `^(517562|528733|536468|547385|551238|554730|554741)`),
		{ID: "maestro", Name: "Maestro", PaymentType: "debit_card", Pattern: arMaestro, Lengths: []int{16, 18, 19}, SecurityCodeLength: 3, CodeLocation: "back", Luhn: true},
		// Naranja numbers carry no Luhn check digit (card_number.validation "none").
		{ID: "naranja", Name: "Naranja", PaymentType: "credit_card", Pattern: `^(589562)`, Lengths: []int{16}, SecurityCodeLength: 3, CodeLocation: "back"},
		credit("cabal", "Cabal", arCabal, "", 16),
	},
	"MLB": {
		credit("visa", "Visa", `^4`, `^(401178|401179|431274|438935|451416|457393|457631|457632)`, 16),
		credit("master", "Mastercard", masterPattern, `^((504175)|(506699|5067[0-6][0-9]|50677[0-8])|(509[0-9]{3}))`, 16),
		amex,
		credit("elo", "Elo", brElo, `^(506722|506776)`, 16),
		debit("debelo", "Elo Débito", `^(506722|506776)`),
		credit("hipercard", "Hipercard", `^((606282)|(3841))`, "", 13, 16, 19),
		credit("diners", "Diners", dinersPattern, `^(3841)`, 14),
	},
	"MLC": {
		credit("visa", "Visa", `^4`, `^(402365)`, 16),
		credit("master", "Mastercard", masterPattern, `^(524101)`, 16),
		amex,
		diners,
		debit("debvisa", "Visa Débito", `^(402365)`),
		debit("debmaster", "Mastercard Débito", `^(524101)`),
	},
	"MCO": {
		credit("visa", "Visa", `^4`, `^(491511)`, 16),
		credit("master", "Mastercard", masterPattern, `^(590712)`, 16),
		amex,
		diners,
		credit("codensa", "Crédito Fácil Codensa", `^(590712)`, "", 16),
		debit("debvisa", "Visa Débito", `^(491511)`),
	},
	"MLM": {
		credit("visa", "Visa", `^4`, `^(418914)`, 16),
		credit("master", "Mastercard", masterPattern, `^(557905)`, 16),
		amex,
		debit("debvisa", "Visa Débito", `^(418914)`),
		debit("debmaster", "Mastercard Débito", `^(557905)`),
	},
	"MPE": {
		credit("visa", "Visa", `^4`, "", 16),
		credit("master", "Mastercard", masterPattern, `^(517878)`, 16),
		amex,
		diners,
		debit("debmaster", "Mastercard Débito", `^(517878)`),
	},
	"MLU": {
		credit("visa", "Visa", `^4`, `^(421301)`, 16),
		credit("master", "Mastercard", masterPattern, uyOCA, 16),
		credit("oca", "OCA", uyOCA, "", 16),
		debit("debvisa", "Visa Débito", `^(421301)`),
	},
}

// paymentMethodsFor returns a site's card methods (MLA's for an unknown site).
func paymentMethodsFor(site string) []method {
	if ms, ok := sitePaymentMethods[site]; ok {
		return ms
	}
	return sitePaymentMethods["MLA"]
}

// siteRules are each site's methods compiled, so tokenisation detects and checks cards exactly as
// GET /v1/payment_methods states them.
var siteRules = func() map[string]card.Rules {
	out := map[string]card.Rules{}
	for site, ms := range sitePaymentMethods {
		gms := make([]gateway.CardMethod, len(ms))
		for i, m := range ms {
			gms[i] = gateway.CardMethod{ID: m.ID, Name: m.Name, PaymentType: m.PaymentType, BINPattern: m.Pattern,
				ExclusionPattern: m.Exclusion, Lengths: m.Lengths, SecurityCodeLength: m.SecurityCodeLength, Luhn: m.Luhn}
		}
		out[site] = card.NewRules(gms)
	}
	return out
}()

// methodForBIN finds the site's brand for a number or BIN (at least six digits).
func methodForBIN(site, number string) (card.Rule, bool) {
	if len(number) < 6 || !digitsOnly(number) {
		return card.Rule{}, false
	}
	rules, ok := siteRules[site]
	if !ok {
		rules = siteRules["MLA"]
	}
	return rules.Detect(number)
}

// savedMethod is a saved card's payment_method: a brand id names the same brand on every site.
func savedMethod(id string) cardMethod {
	for _, ms := range sitePaymentMethods {
		if i := slices.IndexFunc(ms, func(m method) bool { return m.ID == id }); i >= 0 {
			return cardMethod{ID: id, Name: ms[i].Name, PaymentTypeID: ms[i].PaymentType}
		}
	}
	return cardMethod{ID: id, Name: id, PaymentTypeID: "credit_card"}
}

// methodJSON is MercadoPago's payment method shape.
func (m method) methodJSON(l Limits) map[string]any {
	validation := "none"
	if m.Luhn {
		validation = "standard"
	}
	settings := make([]map[string]any, 0, len(m.Lengths))
	// One setting per valid length, as MercadoPago lists brands whose numbers come in several lengths.
	for _, n := range m.Lengths {
		settings = append(settings, map[string]any{
			"bin":           map[string]any{"pattern": m.Pattern, "exclusion_pattern": nullable(m.Exclusion), "installments_pattern": m.Pattern},
			"card_number":   map[string]any{"length": n, "validation": validation},
			"security_code": map[string]any{"length": m.SecurityCodeLength, "card_location": m.CodeLocation, "mode": "mandatory"},
		})
	}
	return map[string]any{
		"id":                     m.ID,
		"name":                   m.Name,
		"payment_type_id":        m.PaymentType,
		"status":                 "active",
		"secure_thumbnail":       "https://www.mercadopago.com/org-img/MP3/API/logos/" + m.ID + ".gif",
		"thumbnail":              "http://img.mlstatic.com/org-img/MP3/API/logos/" + m.ID + ".gif",
		"deferred_capture":       "supported",
		"settings":               settings,
		"additional_info_needed": []string{"cardholder_name", "cardholder_identification_type", "cardholder_identification_number"},
		"min_allowed_amount":     l.Min,
		"max_allowed_amount":     l.Max,
		"accreditation_time":     2880,
		"financial_institutions": []any{},
		"processing_modes":       []string{"aggregator"},
	}
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// siteOf is the MercadoPago site of a caller's account; the platform's for a call naming none.
func (s *Server) siteOf(caller *account) string {
	if caller == nil {
		caller = s.platform
	}
	return caller.SiteID
}

// siteOfCountry is the MercadoPago site of a country (the card vault names one); the platform's
// for a country without one.
func (s *Server) siteOfCountry(country string) string {
	for site, c := range sites {
		if strings.EqualFold(c.Country, country) {
			return site
		}
	}
	return s.siteOf(nil)
}

func (s *Server) listPaymentMethods(w http.ResponseWriter, r *http.Request) {
	site, ok := s.callerSite(w, r)
	if !ok {
		return
	}
	l := s.limitsFor(r)
	ms := paymentMethodsFor(site)
	out := make([]map[string]any, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.methodJSON(l))
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
	if rule, ok := methodForBIN(site, bin); ok {
		ms := paymentMethodsFor(site)
		i := slices.IndexFunc(ms, func(m method) bool { return m.ID == string(rule.Brand) })
		results = append(results, ms[i].methodJSON(s.limitsFor(r)))
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
