// Package outbox keeps every message Aporta sends (Kratos's verification and recovery codes, our own
// e-mails) in the directory's outbox table and hands it to the e-mail or SMS adapter chosen by
// config: SMTP or an HTTP SMS provider in production, "outbox only" in dev and test, where the
// /dev/api/outbox endpoint and the /dev/mailbox page read the messages back.
//
// A message is recorded in a short transaction of its own and delivered after it commits, outside
// any transaction and within the adapter's timeout. A failed delivery (or a process that died before
// delivering) is retried by DeliverPending, which the outbox-sweep schedule runs; the sweep also
// purges messages older than the retention. In production the outbox never stores one-time codes and
// forgets a message's text once it is delivered or given up.
package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
)

// Message types.
const (
	TypeEmail = "email"
	TypeSMS   = "sms"
)

// Retries: the first retry comes RetryAfter after a failed attempt (then 4, 8… minutes, at most an
// hour); after MaxAttempts the message is given up. RetryAfter is also how long a delivery may take
// before another process may try the message again, so adapters must time out well within it.
const (
	RetryAfter  = 2 * time.Minute
	MaxAttempts = 8
)

// Message is one outgoing message.
type Message struct {
	ID          int64  `json:"id"`
	Recipient   string `json:"recipient"`
	MessageType string `json:"message_type"`
	Subject     string `json:"subject"`
	// Body is the text (an e-mail's text/plain part); HTML is an e-mail's text/html part, if any.
	Body         string          `json:"body"`
	HTML         string          `json:"html"`
	TemplateType string          `json:"template_type"`
	TemplateData json.RawMessage `json:"template_data"`
	// Code is the one-time code found in the template data (verification, recovery, login), if any.
	// Kept in dev and test only, for the mailbox.
	Code        string     `json:"code"`
	Adapter     string     `json:"adapter"`
	DeliveredAt *time.Time `json:"delivered_at"`
	Error       string     `json:"error,omitempty"`
	CreatedAt   time.Time  `json:"created_at"`
}

// Adapter delivers a message to its provider.
type Adapter interface {
	Name() string
	Deliver(ctx context.Context, m Message) error
}

// Outbox stores and delivers messages.
type Outbox struct {
	db    *pgxpool.Pool
	email Adapter
	sms   Adapter
	// redact (production): store no codes or template data, and blank the text once delivered or
	// given up.
	redact bool
}

// New builds the outbox with the adapters the config selects.
func New(db *pgxpool.Pool, cfg *config.Config) *Outbox {
	o := &Outbox{db: db, email: OutboxOnly{}, sms: OutboxOnly{}, redact: !cfg.IsDev()}
	if cfg.MailAdapter == "smtp" {
		o.email = &SMTP{Addr: cfg.SMTPAddr, User: cfg.SMTPUser, Password: cfg.SMTPPassword, From: cfg.MailFrom, Timeout: cfg.SMTPTimeout}
	}
	if cfg.SMSAdapter == "http" {
		o.sms = NewHTTPSMS(cfg.SMSURL, cfg.SMSToken)
	}
	return o
}

func (o *Outbox) adapter(m Message) Adapter {
	if m.MessageType == TypeSMS {
		return o.sms
	}
	return o.email
}

// Send records the message, then delivers it. A failed delivery is kept on the message (m.Error)
// and retried by DeliverPending; the error returned is the outbox's own (the record failed).
func (o *Outbox) Send(ctx context.Context, m Message) (Message, error) {
	if _, err := o.record(ctx, "", &m); err != nil {
		return m, err
	}
	return m, o.deliver(ctx, &m)
}

// SendOnce is Send unless a message with key was recorded before: callers racing with one key (a
// donor's double submit, a retried activity) send it once.
func (o *Outbox) SendOnce(ctx context.Context, key string, m Message) error {
	recorded, err := o.record(ctx, key, &m)
	if err != nil || !recorded {
		return err
	}
	return o.deliver(ctx, &m)
}

// record inserts the message (with its key, if any). It reports false when the key was taken: nothing is
// recorded then.
func (o *Outbox) record(ctx context.Context, key string, m *Message) (bool, error) {
	m.Adapter = o.adapter(*m).Name()
	if len(m.TemplateData) == 0 {
		m.TemplateData = json.RawMessage("{}")
	}
	if m.Code == "" {
		m.Code = ExtractCode(m.TemplateData)
	}
	if o.redact {
		m.Code, m.TemplateData = "", json.RawMessage("{}")
	}
	var keyed *string
	if key != "" {
		keyed = &key
	}
	row, err := o.store().InsertOutboxMessage(ctx, dirdb.InsertOutboxMessageParams{
		Recipient: m.Recipient, MessageType: m.MessageType, Subject: m.Subject, Body: m.Body, Html: m.HTML,
		TemplateType: m.TemplateType, TemplateData: m.TemplateData, Code: m.Code, Adapter: m.Adapter,
		RetrySeconds: RetryAfter.Seconds(), Key: keyed,
	})
	if errors.Is(err, dberr.ErrNotFound) { // the key was recorded before
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("outbox insert: %w", err)
	}
	m.ID, m.CreatedAt = row.ID, row.CreatedAt
	return true, nil
}

// deliver hands a recorded message to its adapter and records the outcome. A delivery error is
// recorded for the retry; only failing to record is returned.
func (o *Outbox) deliver(ctx context.Context, m *Message) error {
	err := o.adapter(*m).Deliver(ctx, *m)
	// The outcome is recorded even when the caller has gone.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err != nil {
		m.Error = fmt.Sprintf("deliver %s via %s: %v", m.MessageType, m.Adapter, err)
		return o.store().MarkOutboxFailed(ctx, dirdb.MarkOutboxFailedParams{ID: m.ID, Error: m.Error, Redact: o.redact})
	}
	if err := o.store().MarkOutboxDelivered(ctx, dirdb.MarkOutboxDeliveredParams{ID: m.ID, Redact: o.redact}); err != nil {
		return fmt.Errorf("outbox: mark delivered: %w", err)
	}
	now := time.Now()
	m.DeliveredAt, m.Error = &now, ""
	return nil
}

// DeliverPending retries up to limit messages whose delivery failed or never finished, one claim at
// a time, and answers how many were delivered.
func (o *Outbox) DeliverPending(ctx context.Context, limit int) (int, error) {
	delivered := 0
	for range limit {
		row, err := o.store().ClaimPendingOutbox(ctx, dirdb.ClaimPendingOutboxParams{
			MaxAttempts: MaxAttempts, Adapters: []string{o.email.Name(), o.sms.Name()},
		})
		if errors.Is(err, dberr.ErrNotFound) {
			break
		}
		if err != nil {
			return delivered, err
		}
		m := messageOf(row)
		if err := o.deliver(ctx, &m); err != nil {
			return delivered, err
		}
		if m.DeliveredAt != nil {
			delivered++
		}
	}
	return delivered, nil
}

// Purge deletes the messages, and the keys of keyed e-mails, recorded before the cut-off. A key
// asked for again after that sends again; activities stop retrying long before.
func (o *Outbox) Purge(ctx context.Context, before time.Time) (int64, error) {
	n, err := o.store().PurgeOutboxMessages(ctx, before)
	if err != nil {
		return 0, err
	}
	if err := o.store().PurgeWorkflowEmails(ctx, before); err != nil {
		return 0, err
	}
	return n, nil
}

// List returns the newest messages first, for one recipient or (to == "") for all.
func (o *Outbox) List(ctx context.Context, to string, limit int) ([]Message, error) {
	rows, err := o.store().ListOutboxMessages(ctx, dirdb.ListOutboxMessagesParams{Recipient: to, MaxRows: int32(limit)})
	if err != nil {
		return nil, err
	}
	out := make([]Message, len(rows))
	for i, r := range rows {
		out[i] = messageOf(r)
	}
	return out, nil
}

func (o *Outbox) store() *dirdb.Queries { return dirdb.Store(o.db) }

func messageOf(r dirdb.OutboxMessage) Message {
	return Message{
		ID: r.ID, Recipient: r.Recipient, MessageType: r.MessageType, Subject: r.Subject, Body: r.Body, HTML: r.Html,
		TemplateType: r.TemplateType, TemplateData: r.TemplateData, Code: r.Code, Adapter: r.Adapter,
		DeliveredAt: r.DeliveredAt, Error: r.Error, CreatedAt: r.CreatedAt,
	}
}

// codeKeys are the template data fields Kratos puts one-time codes in.
var codeKeys = []string{"verification_code", "recovery_code", "login_code", "registration_code", "code"}

// ExtractCode finds the one-time code in Kratos's template data.
func ExtractCode(data json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return ""
	}
	for _, k := range codeKeys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}
