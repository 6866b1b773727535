package donation

// Off-site bank debits (donor-and-campaigns §2.1, §3 "Payment method": bank, person type, id type, id
// number): where the processor a rule routes the campaign to offers one (dLocal's REDIRECT bank
// transfer, e.g. PSE in Colombia), the public form may pay by it instead of a card. The donation is
// written pending, its payment created at the processor, and the donor sent to their bank to approve
// it; the processor's signed notification then settles the first transaction through the one charge
// path (firstcharge: charge.Record, receipt, rollup, webhooks), reading the payment back with the
// organisation's own merchant keys. A debit approved at the bank cannot be charged again off-session,
// so it is offered for one-time donations only: a monthly donation needs a card.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/newdonation"
	"github.com/aporta/aporta/internal/processing"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/taxid"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/firstcharge"
)

// BankDebitRequest is payment_method.bank_debit: the payer's bank (a code of the country's bank list),
// person type and document.
type BankDebitRequest struct {
	Bank       string `json:"bank"`
	PersonType string `json:"person_type"` // natural, legal
	IDType     string `json:"id_type"`
	IDNumber   string `json:"id_number"`
}

// FormPaymentMethod is the public form's payment_method: a tokenised card, or a bank debit.
type FormPaymentMethod struct {
	PaymentMethodRequest
	BankDebit *BankDebitRequest `json:"bank_debit"`
}

// BankDebitData is a checked bank debit.
type BankDebitData struct {
	Bank, PersonType, IDType, IDNumber string
}

// BankDebits finds the bank debit a campaign's processor offers and the processor a notification
// comes from (processing.Processors).
type BankDebits interface {
	CampaignBankDebit(ctx context.Context, scope tenants.Scope, campaignID uuid.UUID, currency string) (*processing.BankDebit, error)
	MerchantOf(ctx context.Context, scope tenants.Scope, login string) (processing.Notified, error)
}

// BankDebitNotificationPath is where the processor posts an organisation's bank debits' changes.
const BankDebitNotificationPath = "/api/public/processors/dlocal/notifications/"

// ErrBankDebitUnavailable is a bank debit on a form whose processor offers none.
var ErrBankDebitUnavailable = errors.New("donation: the campaign's processor offers no bank debit")

// errBankNotListed is a bank code the country's list of banks does not have.
var errBankNotListed = errors.New("donation: the bank is not in the country's list")

var bankCodeRe = regexp.MustCompile(`^[0-9A-Za-z]{1,12}$`)

// checkBankDebit checks payment_method.bank_debit as far as the request alone can (the bank's place in
// the country's list is checked against the reference data by CreateBankDebit). The id type is one
// of the country's document types (the generic Otro is not one a bank knows); a tax id (NIT, RUC…)
// is checked with its check digit, and a legal person pays with one.
func checkBankDebit(in BankDebitRequest, recurrency int, country string, types []string, fields map[string]string) *BankDebitData {
	const p = "payment_method.bank_debit."
	d := &BankDebitData{Bank: strings.TrimSpace(in.Bank), PersonType: strings.TrimSpace(in.PersonType)}
	if recurrency != 0 {
		fields["donation.recurrency"] = "donation.bank_debit_one_time"
	}
	if !bankCodeRe.MatchString(d.Bank) {
		fields[p+"bank"] = "donation.bank_required"
	}
	if d.PersonType != "natural" && d.PersonType != "legal" {
		fields[p+"person_type"] = "donation.invalid_option"
	}
	i := slices.IndexFunc(types, func(t string) bool { return t != "Otro" && strings.EqualFold(t, strings.TrimSpace(in.IDType)) })
	if i < 0 {
		fields[p+"id_type"] = "donation.invalid_option"
		return d
	}
	d.IDType = types[i]
	bare, err := taxid.Normalize(country, d.IDType, in.IDNumber)
	switch {
	case errors.Is(err, taxid.ErrTypeNotAllowed): // a person's document, not a tax id
		if d.PersonType == "legal" {
			fields[p+"id_type"] = "donation.bank_debit_legal_id"
		}
		var code string
		if d.IDNumber, code = documentNumber(d.IDType, in.IDNumber); code != "" {
			fields[p+"id_number"] = code
		}
	case errors.Is(err, taxid.ErrInvalidCheckDigit):
		fields[p+"id_number"] = "donation.document_check_digit"
	case err != nil:
		fields[p+"id_number"] = "donation.document_number"
	default:
		d.IDNumber = bare
	}
	return d
}

// bankDebitError is CreateBankDebit's error as the donor's message.
func bankDebitError(err error) error {
	switch {
	case errors.Is(err, ErrBankDebitUnavailable):
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "donation.bank_debit_unavailable", Err: err}
	case errors.Is(err, errBankNotListed):
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "validation_failed",
			Fields: map[string]string{"payment_method.bank_debit.bank": "donation.bank_invalid"}, Err: err}
	}
	return createError(err)
}

// postBankDebit answers POST /d/:slug paid by bank debit: 202 with where the donor approves it while
// the bank has not answered; a submission replayed after the bank answered, as a card's would be.
func (h *Handler) postBankDebit(ctx context.Context, f campaign.Form, sub Submission) (*Response, error) {
	out, redirect, err := h.svc.CreateBankDebit(ctx, f, sub)
	if err != nil {
		return nil, bankDebitError(err)
	}
	switch out.Status {
	case firstcharge.StatusRejected:
		return nil, apierror.New(http.StatusPaymentRequired, "donation.bank_debit_rejected")
	case firstcharge.StatusUnknown:
		return nil, apierror.New(http.StatusBadGateway, "donation.failed")
	}
	lang := i18n.FromContext(ctx)
	resp := view(lang, out)
	resp.Receipt = h.svc.receipts.Ref(f.Scope.OrgID, out.DonationID, h.svc.now())
	resp.status = http.StatusOK
	if out.Status == firstcharge.StatusInProcess {
		resp.Message, resp.RedirectURL, resp.status = i18n.T(lang, "donation.bank_debit_waiting"), redirect, http.StatusAccepted
	}
	return &resp, nil
}

// CreateBankDebit writes a bank-debit submission's donation (pending), creates its payment at the
// processor and answers where the donor approves it. Any number of calls with one idempotency key
// make one donation and one payment (the processor answers a repeated order with its first payment).
func (s *Service) CreateBankDebit(ctx context.Context, f campaign.Form, sub Submission) (_ Outcome, redirect string, _ error) {
	scope, bd := f.Scope, sub.BankDebit
	out := Outcome{Form: f, Recurrency: sub.Recurrency, AmountMinor: sub.Amount, Currency: f.Campaign.Currency, FirstName: sub.Donor.FirstName}
	existing, found, err := findByKey(ctx, scope.Store(), scope.OrgID, sub.IdempotencyKey)
	switch {
	case err != nil:
		return out, "", err
	case found && existing.campaignID != f.Campaign.ID:
		return out, "", ErrKeyReused
	case found && existing.status != "pending":
		out, err = s.replay(ctx, scope, existing, out)
		return out, "", err
	case !found && !f.Org.AcceptingDonations:
		return out, "", ErrNotAccepting
	}
	offer, err := s.bankDebits.CampaignBankDebit(ctx, scope, f.Campaign.ID, f.Campaign.Currency)
	if err != nil {
		return out, "", err
	}
	if offer == nil {
		return out, "", ErrBankDebitUnavailable
	}
	banks, err := reference.Banks(ctx, scope.Store(), f.Org.Country)
	if err != nil {
		return out, "", err
	}
	if _, ok := banks.Bank(bd.Bank); !ok {
		return out, "", errBankNotListed
	}
	loc, err := time.LoadLocation(f.Org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	today := s.now().In(loc)
	d := existing
	if !found {
		if d, err = s.writeBankDebit(ctx, f, sub, offer, collectday.Of(today)); err != nil {
			return out, "", err
		}
	}
	out.DonationID = d.id
	// Pending until the processor's notification; if it never comes, the first-charge sweep's guard reads
	// the payment back (firstcharge.Sweep).
	ret := s.publicURL + "/d/" + url.PathEscape(f.Campaign.Slug) + "/thanks?ref=" + url.QueryEscape(s.receipts.Ref(scope.OrgID, d.id, s.now()))
	transfer := offer.Transfer(dlocal.BankPayer{Name: strings.TrimSpace(sub.Donor.FirstName + " " + sub.Donor.LastName), Email: sub.Donor.Email,
		Document: bd.IDNumber, DocumentType: bd.IDType, PersonType: bd.PersonType, Bank: bd.Bank},
		s.publicURL+BankDebitNotificationPath+scope.OrgID.String(), ret)
	out, err = s.settle(ctx, scope, transfer, d, nil, out, "", "", "", sub.Donor.Email, 0, today)
	if err != nil {
		return out, "", err
	}
	if r := transfer.RedirectURL(); r != "" {
		err = scope.Store().SetBankDebitPayment(ctx, sharddb.SetBankDebitPaymentParams{OrganizationID: scope.OrgID, DonationID: d.id,
			PaymentID: transfer.PaymentID(), RedirectUrl: r})
	}
	return out, transfer.RedirectURL(), err
}

// writeBankDebit stores the donation, pending, without a saved card, and its bank debit.
func (s *Service) writeBankDebit(ctx context.Context, f campaign.Form, sub Submission, offer *processing.BankDebit,
	day collectday.Day) (stored, error) {
	scope, bd := f.Scope, sub.BankDebit
	var written newdonation.Written
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		q := sharddb.Store(tx)
		w, err := sub.write(ctx, q, f, newRow{id: uuid.New()}, nil, nil, day, "pending")
		written = w
		if err != nil {
			return err
		}
		return q.InsertBankDebit(ctx, sharddb.InsertBankDebitParams{OrganizationID: scope.OrgID, DonationID: w.ID,
			Gateway: charge.ProcessorGateway, ProcessorID: offer.ProcessorID(), MethodID: offer.Method.ID, BankCode: bd.Bank,
			PersonType: bd.PersonType, IDType: bd.IDType, IDNumber: bd.IDNumber})
	})
	return storedOf(written, sub.IdempotencyKey), err
}

// BankDebitView is a donation's bank debit as its thank-you page shows it (no document).
type BankDebitView struct {
	Bank string `json:"bank"` // the bank's name
}

// bankDebitReceipt adds a bank debit's state to its receipt: the thank-you page is also where the
// processor sends the donor back from their bank, and says what the bank answered, from our records.
func bankDebitReceipt(ctx context.Context, scope tenants.Scope, lang i18n.Lang, id uuid.UUID, r *Receipt) error {
	bd, err := scope.Store().BankDebitOfDonation(ctx, sharddb.BankDebitOfDonationParams{OrganizationID: scope.OrgID, DonationID: id})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	r.BankDebit = &BankDebitView{Bank: bd.BankCode}
	if bd.BankLabel != nil {
		r.BankDebit.Bank = *bd.BankLabel
	}
	switch r.Status {
	case firstcharge.StatusInProcess:
		r.Message = i18n.T(lang, "donation.bank_debit_waiting")
	case firstcharge.StatusRejected:
		r.Message = i18n.T(lang, "donation.bank_debit_rejected")
	}
	return nil
}

// BankDebitNotify is POST /api/public/processors/dlocal/notifications/:organization: the processor
// posts a bank debit's payment when the bank answered, signed with the merchant's secret key. Only a
// notification signed by one of the organisation's own merchants counts (401 otherwise); its body only
// says which donation, whose first charge is then read back from the processor by its reference with
// that merchant's keys and settled as the first-charge guard would (firstcharge.SettleFirstCharge).
// A replay, or a notification of a payment the bank has not answered yet, changes nothing.
func (h *Handler) BankDebitNotify(c *gin.Context) {
	ctx := c.Request.Context()
	body, err := io.ReadAll(io.LimitReader(c.Request.Body, 1<<20))
	if err != nil {
		apierror.Abort(c, apierror.BadRequest("malformed_json"))
		return
	}
	settled, err := h.svc.bankDebitNotified(ctx, c.Param("organization"), c.Request.Header, body)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"settled": settled})
}

func (s *Service) bankDebitNotified(ctx context.Context, org string, h http.Header, body []byte) (bool, error) {
	unsigned := apierror.New(http.StatusUnauthorized, "donation.bank_debit_unsigned")
	orgID, err := uuid.Parse(org)
	if err != nil {
		return false, apierror.NotFound()
	}
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return false, apierror.NotFound()
	}
	if err != nil {
		return false, err
	}
	m, err := s.bankDebits.MerchantOf(ctx, scope, h.Get("X-Login"))
	if errors.Is(err, processing.ErrNoMerchant) {
		return false, unsigned
	}
	if err != nil {
		return false, err
	}
	if err := m.Account.VerifyNotification(h, body, s.now()); err != nil {
		return false, unsigned
	}
	var p struct {
		OrderID string `json:"order_id"`
	}
	_ = json.Unmarshal(body, &p)
	txID, err := uuid.Parse(p.OrderID)
	if err != nil {
		return false, nil // not one of our orders
	}
	bd, err := scope.Store().BankDebitOfTransaction(ctx, sharddb.BankDebitOfTransactionParams{OrganizationID: scope.OrgID, ID: txID})
	if errors.Is(err, dberr.ErrNotFound) || (err == nil && bd.ProcessorID != m.Processor.ID) {
		return false, nil // not a bank debit of this merchant's
	}
	if err != nil {
		return false, err
	}
	// The merchant that signed reads the payment back (charge.Routed: through its processor, so an
	// approval records its fee); the body is never taken for the outcome.
	merchant := notifiedMerchant{Gateway: m.Account, processor: m.Processor}
	// The form's settler leaves the receipt to the form's answer (followUp); here there is no form.
	settler := s.first
	settler.Receipts = s.receiptMail
	a := firstcharge.Activities{Tenants: s.tenants, Settler: settler, Thanks: s.thanks, Now: s.now,
		Gateways: charge.GatewaysFunc(func(context.Context, uuid.UUID, string, string) (charge.Gateway, error) { return merchant, nil })}
	settled, err := a.SettleFirstCharge(ctx, firstcharge.SettleRequest{Input: firstcharge.Input{OrganizationID: scope.OrgID.String(),
		DonationID: bd.DonationID.String()}})
	if err != nil {
		// The processor posts it again later: it or the database may be back by then.
		return false, &apierror.Error{Status: http.StatusBadGateway, Code: "donation.bank_debit_notification_failed",
			Err: fmt.Errorf("settle bank debit %s of %s: %w", bd.DonationID, scope.OrgID, err)}
	}
	if settled { // and followed up (its receipt and thank-you sent): no guard needed
		if err := firstcharge.Close(ctx, scope, bd.DonationID); err != nil {
			s.log.WarnContext(ctx, "donation: close first charge", "donation_id", bd.DonationID, "error", err)
		}
	}
	return settled, nil
}

// notifiedMerchant is the merchant that notified, as charge.Routed charges and reads through it.
type notifiedMerchant struct {
	charge.Gateway
	processor *charge.Processor
}

func (n notifiedMerchant) ChargeProcessor() *charge.Processor { return n.processor }

func init() {
	i18n.Register(i18n.Catalog{
		"donation.bank_debit_unavailable": {i18n.ES: "Esta campaña no recibe débitos bancarios. Dona con tarjeta.", i18n.ESAR: "Esta campaña no recibe débitos bancarios. Doná con tarjeta.",
			i18n.EN: "This campaign does not take bank debits. Please donate by card.", i18n.PT: "Esta campanha não recebe débitos bancários. Doe com cartão."},
		"donation.bank_debit_one_time": {i18n.ES: "El débito bancario es solo para donaciones por única vez; para donar todos los meses usa una tarjeta.",
			i18n.ESAR: "El débito bancario es solo para donaciones por única vez; para donar todos los meses usá una tarjeta.",
			i18n.EN:   "Bank debit is for one-time donations only; to give every month, use a card.",
			i18n.PT:   "O débito bancário é só para doações únicas; para doar todos os meses, use um cartão."},
		"donation.bank_required": {i18n.ES: "Elige tu banco", i18n.ESAR: "Elegí tu banco", i18n.EN: "Choose your bank", i18n.PT: "Escolha seu banco"},
		"donation.bank_invalid": {i18n.ES: "Ese banco no está en la lista de bancos del país", i18n.EN: "That bank is not on the country's list of banks",
			i18n.PT: "Esse banco não está na lista de bancos do país"},
		"donation.bank_debit_legal_id": {i18n.ES: "Una persona jurídica paga con su número de identificación tributaria (NIT, RUC…)",
			i18n.EN: "A legal person pays with its tax identification number (NIT, RUC…)",
			i18n.PT: "Uma pessoa jurídica paga com seu número de identificação fiscal (NIT, RUC…)"},
		"donation.document_check_digit": {i18n.ES: "El dígito de verificación del número no es correcto", i18n.EN: "The number's check digit is wrong",
			i18n.PT: "O dígito verificador do número está incorreto"},
		"donation.bank_debit_waiting": {i18n.ES: "Estamos esperando la confirmación de tu banco. Te avisaremos por correo cuando tu donación se confirme.",
			i18n.EN: "We are waiting for your bank's confirmation. We will e-mail you when your donation is confirmed.",
			i18n.PT: "Estamos aguardando a confirmação do seu banco. Avisaremos por e-mail quando sua doação for confirmada."},
		"donation.bank_debit_rejected": {i18n.ES: "Tu banco rechazó el débito y no se te cobró nada. Puedes intentarlo de nuevo con otro banco o con tarjeta.",
			i18n.ESAR: "Tu banco rechazó el débito y no se te cobró nada. Podés intentarlo de nuevo con otro banco o con tarjeta.",
			i18n.EN:   "Your bank declined the debit and nothing was charged. You can try again with another bank or by card.",
			i18n.PT:   "Seu banco recusou o débito e nada foi cobrado. Você pode tentar novamente com outro banco ou com cartão."},
		"donation.bank_debit_unsigned": {i18n.ES: "La notificación no está firmada por el procesador de la organización.",
			i18n.EN: "The notification is not signed by the organisation's processor.", i18n.PT: "A notificação não está assinada pelo processador da organização."},
		"donation.bank_debit_notification_failed": {i18n.ES: "No pudimos procesar la notificación; vuelve a enviarla más tarde.",
			i18n.EN: "We could not process the notification; send it again later.", i18n.PT: "Não conseguimos processar a notificação; envie-a novamente mais tarde."},
	})
}
