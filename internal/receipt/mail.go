package receipt

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/portal"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// EmailKind is the receipt e-mail's template.
const EmailKind = "donation_receipt"

// LinkTTL is how long the download link of a receipt e-mail works; the portal lists every receipt.
const LinkTTL = 365 * 24 * time.Hour

const linkPurpose = "donation-receipt-pdf:"

// Links signs and checks receipt download references: (organisation, transaction, expiry).
type Links struct {
	Secret []byte
	Now    func() time.Time // nil: time.Now
}

func (l Links) keys() portal.Keys { return portal.Keys{Secret: l.Secret, Now: l.Now} }

// Ref signs the download of a transaction's receipt until LinkTTL from now.
func (l Links) Ref(orgID, transactionID uuid.UUID) string {
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	return l.keys().Sign(linkPurpose, orgID, transactionID, now().Add(LinkTTL))
}

// Parse checks a reference's signature and expiry.
func (l Links) Parse(ref string) (orgID, transactionID uuid.UUID, ok bool) {
	return l.keys().Parse(linkPurpose, ref)
}

// DownloadURL is where a receipt e-mail's reference downloads the PDF, in the language.
func DownloadURL(publicURL, ref string, lang i18n.Lang) string {
	return publicURL + "/api/public/receipts/" + url.PathEscape(ref) + "?locale=" + url.QueryEscape(string(lang.Base()))
}

// Outbox queues an e-mail once per key (outbox.Mailer).
type Outbox interface {
	SendOnce(ctx context.Context, key string, msg outbox.Message) error
}

// Mailer e-mails a donor the receipt of an approved charge, once per receipt however often asked.
type Mailer struct {
	Outbox    Outbox // nil: no receipt e-mails
	Links     Links
	PublicURL string
}

// Charge names an approved charge as its charger knows it: the transaction it charged, and for a
// monthly donation its period (whose approved transaction may be the form's first one).
type Charge struct {
	DonationID, TransactionID uuid.UUID
	Period                    string // YYYY-MM; "" for a one-time donation
	// Issued is the receipt as the charge's record issued it (charge.Outcome.Receipt); nil: it is read.
	Issued json.RawMessage
}

// mailData is sharddb.ChargeReceiptMail's object (migrations/shard/0640), and the receipt charge_record answers
// (0650: receipt_prepare's object with its number).
type mailData struct {
	Number        int64     `json:"number"`
	TransactionID uuid.UUID `json:"transaction_id"`
	DonorEmail    string    `json:"donor_email"`
	OrgLegalName  string    `json:"org_legal_name"`
	CampaignTitle string    `json:"campaign_title"`
	AmountMinor   int64     `json:"amount_minor"`
	Currency      string    `json:"currency"`
	OrgLocale     string    `json:"org_locale"`
	FirstName     string    `json:"first_name"`
	Slug          string    `json:"slug"`
}

// Send e-mails the charge's receipt in the organisation's language.
func (m Mailer) Send(ctx context.Context, scope tenants.Scope, c Charge) error {
	if m.Outbox == nil {
		return nil
	}
	raw := c.Issued
	if raw == nil {
		var period *string
		if c.Period != "" {
			period = &c.Period
		}
		var err error
		if raw, err = scope.Store().ChargeReceiptMail(ctx, sharddb.ChargeReceiptMailParams{OrganizationID: scope.OrgID,
			DonationID: c.DonationID, TransactionID: c.TransactionID, Period: period}); err != nil {
			return err
		}
	}
	var r mailData
	if raw != nil { // null: the charge has no receipt
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
	}
	if r.Number == 0 {
		return fmt.Errorf("receipt of transaction %s: %w", c.TransactionID, dberr.ErrNotFound)
	}
	lang, _ := i18n.Parse(r.OrgLocale)
	msg, err := outbox.Compose(r.DonorEmail, EmailKind, lang, map[string]any{
		"Name": r.FirstName, "Org": r.OrgLegalName, "Campaign": r.CampaignTitle,
		"Amount": money.New(r.AmountMinor, r.Currency).Format(), "Number": Number(r.Number),
		"URL":    DownloadURL(m.PublicURL, m.Links.Ref(scope.OrgID, r.TransactionID), lang),
		"Portal": portal.URL(m.PublicURL, r.Slug, ""),
	})
	if err != nil {
		return err
	}
	return m.Outbox.SendOnce(ctx, EmailKind+"/"+scope.OrgID.String()+"/"+r.TransactionID.String(), msg)
}
