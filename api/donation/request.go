package donation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/taxid"
)

// Decimal is an amount the form sends as a JSON number (1500, 1500.5) or string ("1500.50").
type Decimal string

// UnmarshalJSON accepts a number or a string.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = Decimal(strings.TrimSpace(s))
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*d = Decimal(n.String())
	return nil
}

// Item is one line of a donation.
type Item struct {
	UUID     string  `json:"uuid"`
	Amount   Decimal `json:"amount"`
	ItemName string  `json:"item_name"`
	Quantity int     `json:"quantity"`
}

// Request is the public form's body (donor spec §3 payload, card data replaced by the token).
type Request struct {
	Donation struct {
		Recurrency       *int   `json:"recurrency"` // 1 monthly (default), 0 one-time
		Items            []Item `json:"items"`
		PeriodicIncrease bool   `json:"periodic_increase"`
		Instalments      int    `json:"instalments"`
	} `json:"donation"`
	PaymentMethod FormPaymentMethod `json:"payment_method"`
	Donor         Donor             `json:"donor"`
	// FormFields are the answers to the campaign's extra form fields.
	FormFields     []FieldValue `json:"form_fields"`
	IdempotencyKey string       `json:"idempotency_key"`
}

// storedItem is an item as the donation keeps it.
type storedItem struct {
	UUID     string `json:"uuid"`
	Amount   int64  `json:"amount"`
	ItemName string `json:"item_name"`
	Quantity int    `json:"quantity"`
}

// Submission is a checked request.
type Submission struct {
	Recurrency       int
	Amount           int64 // total, minor units
	Items            []storedItem
	PeriodicIncrease bool
	Instalments      int
	Card             CardData
	BankDebit        *BankDebitData // instead of Card: an off-site bank debit (bankdebit.go)
	Donor            Donor
	FormValues       []storedValue
	// DonorFields are the answers of fields related to a donor column: column → value.
	DonorFields    map[string]string
	IdempotencyKey string
}

// CardData is what the server may know of a card.
type CardData struct {
	Gateway, Token, MethodID, BIN, LastFour  string
	ExpMonth, ExpYear                        int
	HolderName, HolderIDType, HolderIDNumber string
	DonorIsCardholder                        bool

	// VaultToken is the card-vault token of the same card, for the processor that retries declines
	// (the form sends it when the campaign's charges are retried); "" when none.
	VaultToken string
}

// Donor is the donor's data.
type Donor struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Email     string `json:"email"`
	UIDType   string `json:"uid_type"`
	UIDNumber string `json:"uid_number"`
}

// DonorSnapshot is the donor's data as one submission of the public form gave it, kept with its
// donation (donations.donor_snapshot): the form does not change an existing donor's record.
type DonorSnapshot struct {
	Donor
	// The answers of form fields related to a donor column (campaign.RelatedDonorFields).
	Phone     string `json:"phone,omitempty"`
	Cellphone string `json:"cellphone,omitempty"`
	Street    string `json:"street,omitempty"`
	City      string `json:"city,omitempty"`
	State     string `json:"state,omitempty"`
	Zipcode   string `json:"zipcode,omitempty"`
	Gender    string `json:"gender,omitempty"`
}

func (s Submission) snapshot() DonorSnapshot {
	f := s.DonorFields
	return DonorSnapshot{Donor: s.Donor, Phone: f["phone"], Cellphone: f["cellphone"],
		Street: f["street"], City: f["city"], State: f["state"], Zipcode: f["zipcode"], Gender: f["gender"]}
}

// documentTypes are the donor document types per country (reference table document_types).
var documentTypes = map[string][]string{
	"AR": {"CUIL", "CUIT", "DNI", "LC", "LE", "Otro"},
	"BR": {"Otro"},
	"CL": {"RUT", "Otro"},
	"CO": {"CC", "CE", "NIT", "Otro"},
	"MX": {"RFC", "Otro"},
	"PE": {"CE", "DNI", "RUC", "Otro"},
	"UY": {"CI", "RUT", "Otro"},
}

var (
	keyRe    = regexp.MustCompile(`^[A-Za-z0-9_.:-]{8,128}$`)
	binRe    = regexp.MustCompile(`^[0-9]{6,8}$`)
	lastRe   = regexp.MustCompile(`^[0-9]{4}$`)
	nonDigit = regexp.MustCompile(`[^0-9]`)
)

// vaultTokenRe is a card-vault token, or none.
var vaultTokenRe = regexp.MustCompile(`^$|^[A-Za-z0-9_-]{8,128}$`)

// amountOutOfRange refuses an amount below min (the gateway's smallest donation or, for a typed
// amount, the campaign's minimum other amount: campaign.Service.MinimumFor) or above the gateway's
// largest. The public form and the manage area's amount edits both check with it.
func amountOutOfRange(amount, min int64, limits campaign.Limits, currency string) *apierror.Error {
	switch {
	case amount < min:
		return apierror.New(http.StatusUnprocessableEntity, "donation.amount_min", money.New(min, currency).Format())
	case amount > limits.Max:
		return apierror.New(http.StatusUnprocessableEntity, "donation.amount_max", money.New(limits.Max, currency).Format())
	}
	return nil
}

// check validates the request against the campaign again, as the browser did. It returns an
// *apierror.Error naming each wrong field.
func check(r Request, f campaign.Form, limits campaign.Limits, minimum func(preset bool) int64, now time.Time) (Submission, error) {
	fields := map[string]string{}
	cp := f.Campaign
	sub := Submission{Recurrency: 1, PeriodicIncrease: r.Donation.PeriodicIncrease, IdempotencyKey: strings.TrimSpace(r.IdempotencyKey)}
	if r.Donation.Recurrency != nil {
		sub.Recurrency = *r.Donation.Recurrency
	}
	if sub.Recurrency != 0 && sub.Recurrency != 1 {
		fields["donation.recurrency"] = "donation.invalid_option"
	}
	preset := sub.addItems(r.Donation.Items, cp, fields)
	amountErr := sub.checkAmount(cp, preset, limits, minimum, now, fields)
	sub.checkOptions(r.Donation.Instalments, cp, fields)

	types := documentTypes[f.Org.Country]
	sub.Donor = checkDonor(r.Donor, types, fields)
	if bd := r.PaymentMethod.BankDebit; bd != nil {
		sub.BankDebit = checkBankDebit(*bd, sub.Recurrency, f.Org.Country, types, fields)
	} else {
		var cardFields map[string]string
		sub.Card, cardFields = checkCard(r.PaymentMethod.PaymentMethodRequest,
			cardholder{sub.Donor.FirstName, sub.Donor.LastName, sub.Donor.UIDType, sub.Donor.UIDNumber}, types, now, "payment_method.")
		maps.Copy(fields, cardFields)
	}
	if sub.Donor.UIDNumber == "" && sub.Card.DonorIsCardholder {
		sub.Donor.UIDType, sub.Donor.UIDNumber = sub.Card.HolderIDType, sub.Card.HolderIDNumber
	}

	values, valueFields := checkFieldValues(cp.FormFields, r.FormFields, now)
	maps.Copy(fields, valueFields)
	sub.FormValues, sub.DonorFields = values, donorFields(cp.FormFields, values)

	if !keyRe.MatchString(sub.IdempotencyKey) {
		fields["idempotency_key"] = "donation.idempotency_key_invalid"
	}
	if len(fields) > 0 {
		if amountErr != nil {
			amountErr.Fields = fields
			return sub, amountErr
		}
		return sub, apierror.Validation(fields)
	}
	return sub, nil
}

// addItems adds the request's items to the submission, their total to its amount, and reports
// whether every amount is one of the campaign's presets.
func (sub *Submission) addItems(items []Item, cp *campaign.Campaign, fields map[string]string) (preset bool) {
	if len(items) == 0 {
		fields["donation.items"] = "donation.required"
	}
	preset = true
	presets := cp.AmountsMinor()
	for i, it := range items {
		m, err := money.Parse(string(it.Amount), cp.Currency)
		if err != nil || m.Minor <= 0 {
			fields[fmt.Sprintf("donation.items.%d.amount", i)] = "donation.amount_invalid"
			continue
		}
		q := it.Quantity
		if q == 0 {
			q = 1
		}
		if q < 0 || q > 100 {
			fields[fmt.Sprintf("donation.items.%d.quantity", i)] = "donation.invalid_option"
			continue
		}
		if m.Minor > (math.MaxInt64-sub.Amount)/int64(q) { // the total would overflow int64
			fields[fmt.Sprintf("donation.items.%d.amount", i)] = "donation.amount_invalid"
			continue
		}
		if !slices.Contains(presets, m.Minor) {
			preset = false
		}
		name := strings.TrimSpace(it.ItemName)
		if utf8.RuneCountInString(name) > 120 {
			name = string([]rune(name)[:120])
		}
		sub.Items = append(sub.Items, storedItem{UUID: it.UUID, Amount: m.Minor, ItemName: name, Quantity: q})
		sub.Amount += m.Minor * int64(q)
	}
	return preset
}

// checkAmount checks what the campaign allows of the amount and frequency: tickets on sale, a typed
// amount when allowed, within the limits, one-time gifts. The error it returns is the answer's
// headline when some field is wrong.
func (sub *Submission) checkAmount(cp *campaign.Campaign, preset bool, limits campaign.Limits, minimum func(preset bool) int64,
	now time.Time, fields map[string]string) *apierror.Error {
	var amountErr *apierror.Error
	if cp.Type == "tickets" && cp.Event != nil {
		amountErr = checkTickets(*cp.Event, sub.Items, now, fields)
	}
	if len(fields) == 0 && sub.Amount > 0 {
		if !preset && !cp.AllowOtherAmount {
			fields["donation.items"] = "donation.other_amount_not_allowed"
			amountErr = apierror.New(http.StatusUnprocessableEntity, "donation.other_amount_not_allowed")
		} else if amountErr = amountOutOfRange(sub.Amount, minimum(preset), limits, cp.Currency); amountErr != nil {
			fields["donation.items"] = "donation.amount_out_of_range"
		}
	}
	if sub.Recurrency == 0 && !cp.AllowOneTime {
		fields["donation.recurrency"] = "donation.one_time_not_allowed"
		if amountErr == nil {
			amountErr = apierror.New(http.StatusUnprocessableEntity, "donation.one_time_not_allowed")
		}
	}
	return amountErr
}

// checkOptions keeps the periodic increase and instalments the campaign offers.
func (sub *Submission) checkOptions(instalments int, cp *campaign.Campaign, fields map[string]string) {
	if sub.PeriodicIncrease && (!cp.PeriodicIncrease.Enabled || sub.Recurrency != 1) {
		sub.PeriodicIncrease = false // nothing to opt in to
	}
	if instalments > 1 {
		if !slices.Contains(campaign.Instalments, instalments) || instalments > cp.Instalments {
			fields["donation.instalments"] = "donation.invalid_option"
		} else {
			sub.Instalments = instalments
		}
	}
}

// checkDonor checks the donor's name, e-mail and document as the form sent them.
func checkDonor(in Donor, types []string, fields map[string]string) Donor {
	d := Donor{FirstName: strings.TrimSpace(in.FirstName), LastName: strings.TrimSpace(in.LastName)}
	for name, v := range map[string]string{"donor.first_name": d.FirstName, "donor.last_name": d.LastName} {
		switch {
		case v == "":
			fields[name] = "donation.required"
		case utf8.RuneCountInString(v) > 100:
			fields[name] = "donation.too_long"
		}
	}
	if e, ok := campaign.NormalizeEmail(in.Email); ok {
		d.Email = e
	} else if strings.TrimSpace(in.Email) == "" {
		fields["donor.email"] = "donation.required"
	} else {
		fields["donor.email"] = "donation.email_invalid"
	}
	if in.UIDNumber != "" || in.UIDType != "" {
		d.UIDType = docType(in.UIDType, types)
		var code string
		if d.UIDNumber, code = documentNumber(d.UIDType, in.UIDNumber); code != "" {
			fields["donor.uid_number"] = code
		}
	}
	return d
}

// checkTickets checks a tickets campaign's items: each names one of its ticket options, and sales
// have not ended. Quantities left are checked when the donation is written (Service.Create).
func checkTickets(ev campaign.Event, items []storedItem, now time.Time, fields map[string]string) *apierror.Error {
	if ev.TicketSalesEnd != nil && !now.Before(*ev.TicketSalesEnd) {
		fields["donation.items"] = "donation.ticket_sales_ended"
		return apierror.New(http.StatusUnprocessableEntity, "donation.ticket_sales_ended")
	}
	for i, it := range items {
		if !slices.ContainsFunc(ev.Tickets, func(t campaign.Ticket) bool { return t.Name == it.ItemName }) {
			fields[fmt.Sprintf("donation.items.%d.item_name", i)] = "donation.ticket_required"
		}
	}
	return nil
}

// docType keeps a document type valid in the country, else the generic "Otro".
func docType(t string, valid []string) string {
	for _, v := range valid {
		if strings.EqualFold(v, strings.TrimSpace(t)) {
			return v
		}
	}
	return "Otro"
}

// cardholder is whom the card's holder fields default to when the form leaves them empty.
type cardholder struct{ FirstName, LastName, UIDType, UIDNumber string }

// checkCard validates a payment_method object — the public form's and the manage area's card change
// share it — keeping only what may be stored of a card. Field errors are keyed prefix+field.
func checkCard(pm PaymentMethodRequest, donor cardholder, types []string, now time.Time, prefix string) (CardData, map[string]string) {
	fields := map[string]string{}
	c := CardData{MethodID: strings.ToLower(strings.TrimSpace(pm.MethodID)), BIN: strings.TrimSpace(pm.BIN), LastFour: strings.TrimSpace(pm.LastFour)}
	c.Gateway, _ = pm.Gateway["name"].(string)
	c.Token, _ = pm.Gateway["token"].(string)
	c.VaultToken, _ = pm.Gateway["vault_token"].(string)
	if !vaultTokenRe.MatchString(c.VaultToken) {
		fields[prefix+"gateway.vault_token"] = "donation.card_token_required"
	}
	if strings.TrimSpace(c.Token) == "" {
		fields[prefix+"gateway.token"] = "donation.card_token_required"
	}
	if c.MethodID == "" {
		fields[prefix+"method_id"] = "donation.card_type_required"
	}
	if !binRe.MatchString(c.BIN) {
		fields[prefix+"bin"] = "donation.card_number_invalid"
	}
	if !lastRe.MatchString(c.LastFour) {
		fields[prefix+"last_four"] = "donation.card_number_invalid"
	}
	exp := pm.CCExpiration
	if exp == "" && pm.ExpirationMonth != 0 {
		exp = fmt.Sprintf("%02d/%d", pm.ExpirationMonth, pm.ExpirationYear)
		if pm.ExpirationYear < 100 {
			exp = fmt.Sprintf("%02d/%02d", pm.ExpirationMonth, pm.ExpirationYear)
		}
	}
	switch e, err := card.ParseExpiry(exp, now); {
	case exp == "":
		fields[prefix+"expiration"] = "donation.expiry_required"
	case err != nil:
		fields[prefix+"expiration"] = "donation.expiry_invalid"
	default:
		c.ExpMonth, c.ExpYear = int(e.Month), e.Year
	}

	c.DonorIsCardholder = pm.DonorIsCardholder == nil || *pm.DonorIsCardholder
	c.HolderName = strings.TrimSpace(pm.CardholderName)
	if c.HolderName == "" && donor.FirstName != "" {
		c.HolderName = strings.TrimSpace(donor.FirstName + " " + donor.LastName)
	}
	if c.HolderName == "" {
		fields[prefix+"cardholder_name"] = "donation.required"
	} else if utf8.RuneCountInString(c.HolderName) > 120 {
		fields[prefix+"cardholder_name"] = "donation.too_long"
	}
	idType := pm.CardholderIDType
	if idType == "" {
		idType = firstNonEmpty(donor.UIDType, "DNI")
	}
	c.HolderIDType = docType(idType, types)
	number := pm.CardholderIDNumber
	if nonDigit.ReplaceAllString(number, "") == "" && c.DonorIsCardholder {
		number = donor.UIDNumber
	}
	var code string
	if c.HolderIDNumber, code = documentNumber(c.HolderIDType, number); code != "" {
		fields[prefix+"cardholder_id_number"] = code
	}
	return c, fields
}

// documentNumber keeps the digits of a document number and checks their count: at least 3, at most
// the type's longest number (taxid.MaxDocumentLength; a type it does not know is capped like
// "Otro"), so a card number typed into a DNI field is refused. code is "" when the number is valid.
func documentNumber(docType, raw string) (digits, code string) {
	digits = nonDigit.ReplaceAllString(raw, "")
	limit := taxid.MaxDocumentLength(docType)
	if limit == 0 {
		limit = taxid.MaxDocumentLength("Otro")
	}
	switch {
	case len(digits) < 3:
		return digits, "donation.document_number"
	case len(digits) > limit:
		return digits, "donation.document_too_long"
	}
	return digits, ""
}
