package subscription

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/pdfdoc"
	"github.com/aporta/aporta/internal/reference"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/billing"
)

// InvoicePDF is GET /manage/api/subscription/invoices/{id}/pdf: a paid period's invoice as a PDF, in
// the organisation's language, made out to its legal name and tax id. Another organisation's
// invoice, like an unknown one, is not found; an unpaid one has no PDF yet.
func (h *Handler) InvoicePDF(c *gin.Context) {
	ctx := c.Request.Context()
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		apierror.Abort(c, apierror.NotFound())
		return
	}
	s, err := authz.Scope(ctx)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	pdf, inv, err := invoicePDF(ctx, s, id)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	endpoint.SendPDF(c, fmt.Sprintf("aporta-%s-%s", inv.PlanCode, inv.PeriodStart.UTC().Format("2006-01-02")), pdf)
}

// address is the organisation's postal address as organisation settings keep it.
type address struct {
	Street     string `json:"street"`
	Number     string `json:"number"`
	City       string `json:"city"`
	State      string `json:"state"`
	PostalCode string `json:"postal_code"`
}

func (a address) String() string {
	var parts []string
	for _, p := range []string{strings.TrimSpace(a.Street + " " + a.Number), a.PostalCode, a.City, a.State} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

func invoicePDF(ctx context.Context, s tenants.Scope, id uuid.UUID) ([]byte, sharddb.SubscriptionInvoice, error) {
	inv, err := s.Store().SubscriptionInvoiceByID(ctx, sharddb.SubscriptionInvoiceByIDParams{OrganizationID: s.OrgID, ID: id})
	if errors.Is(err, dberr.ErrNotFound) {
		return nil, inv, apierror.NotFound()
	}
	if err != nil {
		return nil, inv, err
	}
	if inv.Status != billing.OutcomePaid || inv.PaidAt == nil {
		return nil, inv, apierror.New(http.StatusConflict, "subscription.invoice_unpaid")
	}
	holder, err := s.Store().InvoiceHolder(ctx, s.OrgID)
	if err != nil {
		return nil, inv, err
	}
	country, err := reference.Get(ctx, s.Store(), s.Country)
	if err != nil {
		return nil, inv, err
	}
	lang, _ := i18n.Parse(holder.Locale)
	tz, err := time.LoadLocation(holder.Timezone)
	if err != nil {
		tz = time.UTC
	}
	t := func(code string, params ...any) string { return i18n.T(lang, code, params...) }
	layout := "02/01/2006"
	if lang.Base() == i18n.EN {
		layout = time.DateOnly
	}
	day := func(at time.Time) string { return at.In(tz).Format(layout) }

	d, err := pdfdoc.New(t("invoice.title"), *inv.PaidAt)
	if err != nil {
		return nil, inv, err
	}
	d.Row(t("invoice.number"), inv.ID.String())
	d.Row(t("invoice.issued"), day(*inv.PaidAt))
	d.Row(t("invoice.issuer"), "Aporta")

	d.Section(t("invoice.customer"))
	legal := holder.LegalName
	if legal == "" {
		legal = holder.Name
	}
	d.Row(t("invoice.legal_name"), legal)
	if holder.Uid != "" {
		d.Row(t("invoice.tax_id"), strings.TrimSpace(holder.UidType+" "+holder.Uid))
	}
	var addr address
	_ = json.Unmarshal(holder.Address, &addr)
	d.Row(t("invoice.address"), addr.String())

	d.Section(t("invoice.detail"))
	plan, _ := country.Plan(inv.PlanCode)
	planName := inv.PlanCode
	if plan.TierName != "" {
		planName = plan.TierName + " (" + t("invoice.period."+plan.Period) + ")"
	}
	d.Row(t("invoice.plan"), planName)
	d.Row(t("invoice.period"), day(inv.PeriodStart)+" – "+day(inv.PeriodEnd))
	d.Row(t("invoice.payment_mode"), t("invoice.mode."+inv.PaymentMode))
	amount := money.New(inv.AmountMinor, inv.Currency)
	d.Row(t("invoice.amount"), amount.Format()+" "+inv.Currency)
	if inv.Kind == "prorata" {
		d.Note(t("invoice.prorata_note"))
	}
	switch {
	case inv.MepRateMinor != nil && inv.UsdPriceMinor != nil && inv.MepSource != nil && inv.MepAsOf != nil:
		d.Note(t("invoice.mep_note_rate", money.New(*inv.UsdPriceMinor, "USD").Decimal(), money.New(*inv.MepRateMinor, mep.Currency).Format(),
			*inv.MepSource, inv.MepAsOf.UTC().Format(layout))) // a calendar day, not an instant
	case inv.Currency == mep.Currency && plan.USDPrice.Minor > 0: // charged before invoices kept their rate
		d.Note(t("invoice.mep_note", plan.USDPrice.Decimal()))
	}
	d.Note(t("invoice.paid_on", day(*inv.PaidAt)))
	pdf, err := d.Bytes()
	return pdf, inv, err
}

func init() {
	i18n.Register(i18n.Catalog{
		"subscription.invoice_unpaid": {i18n.ES: "Esta factura todavía no está pagada.", i18n.EN: "This invoice is not paid yet.", i18n.PT: "Esta fatura ainda não foi paga."},
		"invoice.title":               {i18n.ES: "Factura de suscripción a Aporta", i18n.EN: "Aporta subscription invoice", i18n.PT: "Fatura de assinatura da Aporta"},
		"invoice.number":              {i18n.ES: "Número", i18n.EN: "Number", i18n.PT: "Número"},
		"invoice.issued":              {i18n.ES: "Fecha de emisión", i18n.EN: "Issue date", i18n.PT: "Data de emissão"},
		"invoice.issuer":              {i18n.ES: "Emisor", i18n.EN: "Issuer", i18n.PT: "Emissor"},
		"invoice.customer":            {i18n.ES: "Organización", i18n.EN: "Organisation", i18n.PT: "Organização"},
		"invoice.legal_name":          {i18n.ES: "Razón social", i18n.EN: "Legal name", i18n.PT: "Razão social"},
		"invoice.tax_id":              {i18n.ES: "Identificación fiscal", i18n.EN: "Tax id", i18n.PT: "Identificação fiscal"},
		"invoice.address":             {i18n.ES: "Domicilio", i18n.EN: "Address", i18n.PT: "Endereço"},
		"invoice.detail":              {i18n.ES: "Detalle", i18n.EN: "Details", i18n.PT: "Detalhes"},
		"invoice.plan":                {i18n.ES: "Plan", i18n.EN: "Plan", i18n.PT: "Plano"},
		"invoice.period.monthly":      {i18n.ES: "mensual", i18n.EN: "monthly", i18n.PT: "mensal"},
		"invoice.period.yearly":       {i18n.ES: "anual", i18n.EN: "yearly", i18n.PT: "anual"},
		"invoice.period":              {i18n.ES: "Período", i18n.EN: "Period", i18n.PT: "Período"},
		"invoice.payment_mode":        {i18n.ES: "Medio de pago", i18n.EN: "Payment method", i18n.PT: "Meio de pagamento"},
		"invoice.mode.card":           {i18n.ES: "Tarjeta", i18n.EN: "Card", i18n.PT: "Cartão"},
		"invoice.mode.cbu":            {i18n.ES: "Débito directo (CBU)", i18n.EN: "Direct debit (CBU)", i18n.PT: "Débito direto (CBU)"},
		"invoice.mode.bank_transfer":  {i18n.ES: "Transferencia bancaria", i18n.EN: "Bank transfer", i18n.PT: "Transferência bancária"},
		"invoice.amount":              {i18n.ES: "Total", i18n.EN: "Total", i18n.PT: "Total"},
		"invoice.mep_note":            {i18n.ES: "Precio de lista: %s USD, pagado en pesos argentinos al tipo de cambio MEP.", i18n.EN: "List price: %s USD, paid in Argentine pesos at the MEP exchange rate.", i18n.PT: "Preço de tabela: %s USD, pago em pesos argentinos à taxa de câmbio MEP."},
		"invoice.mep_note_rate":       {i18n.ES: "Precio de lista: %s USD, pagado en pesos argentinos al tipo de cambio MEP de %s por dólar (%s, %s).", i18n.EN: "List price: %s USD, paid in Argentine pesos at the MEP exchange rate of %s per dollar (%s, %s).", i18n.PT: "Preço de tabela: %s USD, pago em pesos argentinos à taxa de câmbio MEP de %s por dólar (%s, %s)."},
		"invoice.prorata_note":        {i18n.ES: "Diferencia por el cambio a un plan superior, prorrateada por los días que quedaban del período pagado.", i18n.EN: "Difference for the upgrade to a higher plan, prorated over the days left in the paid period.", i18n.PT: "Diferença pela mudança para um plano superior, proporcional aos dias restantes do período pago."},
		"invoice.paid_on":             {i18n.ES: "Pagada el %s.", i18n.EN: "Paid on %s.", i18n.PT: "Paga em %s."},
	})
}
