// Package receipt is a donor's receipt for each approved charge and their yearly summary: the
// number (per organisation, without gaps), the PDF documents, and the e-mail that hands a receipt
// out. charge.Record issues the receipt in the statement that records the approval (receipt_prepare
// and receipt_insert, migrations/shard/0630, called by charge_record), so every channel (the public form, monthly
// collection, agencies' sign-ups) gets one the same way, and annuls it with a refund or chargeback.
package receipt

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/numwords"
	"github.com/aporta/aporta/internal/pdfdoc"
	"github.com/aporta/aporta/internal/sharddb"
)

// Number is a receipt number as documents show it.
func Number(n int64) string { return fmt.Sprintf("%08d", n) }

// Reader is how a document is written for its reader: the language and the organisation's time zone.
type Reader struct {
	Lang i18n.Lang
	Zone *time.Location
}

func (r Reader) t(code string, params ...any) string { return i18n.T(r.Lang, code, params...) }

func (r Reader) day(at time.Time) string {
	zone := r.Zone
	if zone == nil {
		zone = time.UTC
	}
	if r.Lang.Base() == i18n.EN {
		return at.In(zone).Format("2006-01-02")
	}
	return at.In(zone).Format("02/01/2006")
}

// Zone is the organisation's time zone, UTC when it is not a known one.
func Zone(name string) *time.Location {
	if z, err := time.LoadLocation(name); err == nil {
		return z
	}
	return time.UTC
}

// figures is an amount in figures with its currency code ("$ 1.500,50 ARS").
func figures(a money.Amount) string { return a.Format() + " " + a.Currency }

// parties writes the organisation's and the donor's legal data, as the receipt was issued.
func (r Reader) parties(d *pdfdoc.Doc, rc sharddb.Receipt) {
	d.Section(r.t("receipt.organization"))
	d.Row(r.t("receipt.legal_name"), rc.OrgLegalName)
	d.Row(r.t("receipt.tax_id"), rc.OrgTaxID)
	d.Row(r.t("receipt.address"), rc.OrgAddress)
	d.Section(r.t("receipt.donor"))
	d.Row(r.t("receipt.donor_name"), rc.DonorName)
	d.Row(r.t("receipt.tax_id"), rc.DonorTaxID)
	d.Row(r.t("receipt.email"), rc.DonorEmail)
}

// PDF is one receipt's document.
func (r Reader) PDF(rc sharddb.Receipt) ([]byte, error) {
	d, err := pdfdoc.New(r.t("receipt.title", Number(rc.Number)), rc.IssuedAt)
	if err != nil {
		return nil, err
	}
	amount := money.New(rc.AmountMinor, rc.Currency)
	d.Row(r.t("receipt.number"), Number(rc.Number))
	d.Row(r.t("receipt.date"), r.day(rc.ChargedAt))
	if rc.AnnulledAt != nil {
		d.Row(r.t("receipt.annulled"), r.day(*rc.AnnulledAt))
	}
	r.parties(d, rc)
	d.Section(r.t("receipt.donation"))
	d.Row(r.t("receipt.campaign"), rc.CampaignTitle)
	d.Row(r.t("receipt.amount"), figures(amount))
	d.Row(r.t("receipt.amount_words"), numwords.Amount(r.Lang, amount))
	d.Note(r.t("receipt.statement", rc.OrgLegalName, rc.DonorName, numwords.Amount(r.Lang, amount), figures(amount), r.day(rc.ChargedAt)))
	return d.Bytes()
}

// Year is the span of a calendar year in the organisation's time zone: [from, to).
func Year(year int, zone *time.Location) (from, to time.Time) {
	from = time.Date(year, time.January, 1, 0, 0, 0, 0, zone)
	return from, from.AddDate(1, 0, 0)
}

// SummaryPDF is a donor's yearly summary: every receipt of the year, then the total in each currency
// in figures and in words. rs are the year's receipts, oldest first (at least one).
func (r Reader) SummaryPDF(year int, rs []sharddb.Receipt) ([]byte, error) {
	if len(rs) == 0 {
		return nil, errors.New("receipt: a summary without receipts")
	}
	last := rs[len(rs)-1]
	d, err := pdfdoc.New(r.t("receipt.summary_title", year), last.ChargedAt)
	if err != nil {
		return nil, err
	}
	d.Row(r.t("receipt.year"), fmt.Sprint(year))
	r.parties(d, last) // the latest legal data of the year
	d.Section(r.t("receipt.summary_receipts"))
	totals := map[string]int64{}
	var currencies []string
	for _, rc := range rs {
		if _, ok := totals[rc.Currency]; !ok {
			currencies = append(currencies, rc.Currency)
		}
		totals[rc.Currency] += rc.AmountMinor
		d.Row(r.day(rc.ChargedAt), strings.Join([]string{r.t("receipt.summary_line", Number(rc.Number)), rc.CampaignTitle,
			figures(money.New(rc.AmountMinor, rc.Currency))}, " · "))
	}
	d.Section(r.t("receipt.summary_total"))
	for _, c := range currencies {
		total := money.New(totals[c], c)
		d.Row(figures(total), numwords.Amount(r.Lang, total))
	}
	d.Note(r.t("receipt.summary_note", len(rs), year))
	return d.Bytes()
}
