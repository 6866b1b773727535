package onboarding

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// E-mail kinds the workflow sends.
const (
	EmailDocumentApproved = "document_approved"
	EmailDocumentRejected = "document_rejected"
	EmailAccountEnabled   = "account_enabled"
	EmailStaffReminder    = "staff_review_reminder"
)

// Review timing: staff are reminded ReminderLead before the 48-hour target; while a review is open
// but not due the workflow checks again every ReviewPoll.
const (
	ReviewTarget = 48 * time.Hour
	ReminderLead = 8 * time.Hour
	ReviewPoll   = 6 * time.Hour
)

// Review is a staff decision on one document (signal document-reviewed).
type Review struct {
	Key          string `json:"key"` // idempotency key of the decision (the audit entry)
	DocumentType string `json:"document_type"`
	Decision     string `json:"decision"` // approved | rejected
	Reason       string `json:"reason,omitempty"`
}

// Email is a message for the outbox. Exactly one of OrganizationID (its administrators) or
// ToAddress is set. Key makes a retried activity queue the message once.
type Email struct {
	Key            string            `json:"key"`
	Kind           string            `json:"kind"`
	OrganizationID string            `json:"organization_id,omitempty"`
	ToAddress      string            `json:"to_address,omitempty"`
	Params         map[string]string `json:"params,omitempty"`
}

// Mailer queues e-mails (OutboxMailer; tests may record them instead).
type Mailer interface {
	Queue(ctx context.Context, e Email) error
}

// OutboxMailer e-mails through the outbox, once per key: organisation messages to its active
// administrators in the organisation's language, staff reminders to the staff inbox.
type OutboxMailer struct {
	Mail      outbox.Mailer
	Tenants   *tenants.Tenants
	PublicURL string
}

// NewMailer builds the onboarding mailer from the configuration.
func NewMailer(cfg *config.Config, t *tenants.Tenants) OutboxMailer {
	return OutboxMailer{Mail: outbox.NewMailer(cfg, t.Directory()), Tenants: t, PublicURL: cfg.PublicURL}
}

// Queue renders the e-mail and hands it to the outbox.
func (m OutboxMailer) Queue(ctx context.Context, e Email) error {
	orgID := e.OrganizationID
	if orgID == "" {
		orgID = e.Params["organization_id"]
	}
	id, err := uuid.Parse(orgID)
	if err != nil {
		return fmt.Errorf("organization id: %w", err)
	}
	scope, err := m.Tenants.ForOrganization(ctx, id)
	if err != nil {
		return err
	}
	org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return err
	}
	lang, _ := i18n.Parse(org.Locale)
	if e.ToAddress != "" {
		lang = i18n.ES // the staff inbox reads Spanish
	}
	msg, err := compose(lang, e, org.Name, m.PublicURL)
	if err != nil {
		return err
	}
	if e.ToAddress != "" {
		msg.Recipient = e.ToAddress
		return m.Mail.SendOnce(ctx, e.Key, msg)
	}
	return m.Mail.ToAdministrators(ctx, scope.OrgID, e.Key, msg)
}

// compose renders the kind's e-mail (internal/outbox/templates/<kind>.tmpl).
func compose(lang i18n.Lang, e Email, org, publicURL string) (outbox.Message, error) {
	document := ""
	if t := e.Params["document_type"]; t != "" {
		document = i18n.T(lang, "document."+t+".label")
	}
	data := map[string]any{"Org": org, "Document": document, "Reason": e.Params["reason"], "DueAt": e.Params["due_at"]}
	switch e.Kind {
	case EmailDocumentApproved, EmailDocumentRejected:
		data["URL"] = publicURL + "/account/onboarding/documents"
	case EmailAccountEnabled:
		data["URL"] = publicURL + "/manage/campaigns/choose_type"
	default: // staff reminder
		data["URL"] = publicURL + "/staff/organizations/" + e.Params["organization_id"]
	}
	return outbox.Compose("", e.Kind, lang, data)
}

// EmailOrganization queues an e-mail to the organisation's administrators.
func (a *Activities) EmailOrganization(ctx context.Context, orgID string, e Email) error {
	e.OrganizationID = orgID
	return a.Mailer.Queue(ctx, e)
}

// RemindStaff reminds staff of a review nearing its 48-hour target, once per review request, and
// answers how long to wait before checking again.
func (a *Activities) RemindStaff(ctx context.Context, orgID string) (time.Duration, error) {
	id, err := uuid.Parse(orgID)
	if err != nil {
		return 0, fmt.Errorf("organization id: %w", err)
	}
	directory := dirdb.Store(a.Tenants.Directory())
	review, err := directory.DocumentReview(ctx, id)
	if errors.Is(err, dberr.ErrNotFound) {
		return ReviewPoll, nil
	}
	if err != nil {
		return 0, err
	}
	requested, closed, reminded := review.RequestedAt, review.ClosedAt, review.RemindedAt
	if closed != nil || (reminded != nil && !reminded.Before(requested)) {
		return ReviewPoll, nil
	}
	due := requested.Add(ReviewTarget - ReminderLead)
	if now := time.Now(); now.Before(due) {
		return due.Sub(now), nil
	}
	err = a.Mailer.Queue(ctx, Email{
		Key:       fmt.Sprintf("%s/%s/%d", EmailStaffReminder, orgID, requested.Unix()),
		Kind:      EmailStaffReminder,
		ToAddress: a.StaffInbox,
		Params: map[string]string{
			"organization_id": orgID,
			"requested_at":    requested.UTC().Format(time.RFC3339),
			"due_at":          requested.Add(ReviewTarget).UTC().Format(time.RFC3339),
		},
	})
	if err != nil {
		return 0, err
	}
	if err := directory.MarkDocumentReviewReminded(ctx, id); err != nil {
		return 0, err
	}
	return ReviewPoll, nil
}
