// Package outbox keeps every message Aporta sends (Kratos's verification and recovery codes, our own
// invitations) in the directory's outbox table and hands it to the e-mail or SMS adapter chosen by
// config: SMTP or an HTTP SMS provider in production, "outbox only" in dev and test, where the
// /dev/api/outbox endpoint and the /dev/mailbox page read the messages back.
package outbox

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/config"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Message types.
const (
	TypeEmail = "email"
	TypeSMS   = "sms"
)

// Message is one outgoing message.
type Message struct {
	ID           int64           `json:"id"`
	Recipient    string          `json:"recipient"`
	MessageType  string          `json:"message_type"`
	Subject      string          `json:"subject"`
	Body         string          `json:"body"`
	TemplateType string          `json:"template_type"`
	TemplateData json.RawMessage `json:"template_data"`
	// Code is the one-time code found in the template data (verification, recovery, login), if any.
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
}

// New builds the outbox with the adapters the config selects.
func New(db *pgxpool.Pool, cfg *config.Config) *Outbox {
	o := &Outbox{db: db, email: OutboxOnly{}, sms: OutboxOnly{}}
	if cfg.MailAdapter == "smtp" {
		o.email = &SMTP{Addr: cfg.SMTPAddr, User: cfg.SMTPUser, Password: cfg.SMTPPassword, From: cfg.MailFrom}
	}
	if cfg.SMSAdapter == "http" {
		o.sms = NewHTTPSMS(cfg.SMSURL, cfg.SMSToken)
	}
	return o
}

// Conn is where a message is kept: the pool, or a caller's transaction.
type Conn interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Send keeps the message, then delivers it. The message stays in the outbox whatever happens; a
// delivery error is recorded on it and returned.
func (o *Outbox) Send(ctx context.Context, m Message) (Message, error) {
	return o.SendVia(ctx, o.db, m)
}

// SendVia is Send keeping the message through db (the caller's transaction, say).
func (o *Outbox) SendVia(ctx context.Context, db Conn, m Message) (Message, error) {
	adapter := o.email
	if m.MessageType == TypeSMS {
		adapter = o.sms
	}
	if len(m.TemplateData) == 0 {
		m.TemplateData = json.RawMessage("{}")
	}
	if m.Code == "" {
		m.Code = ExtractCode(m.TemplateData)
	}
	m.Adapter = adapter.Name()
	err := db.QueryRow(ctx, queries.Get("InsertMessage"), m.Recipient, m.MessageType, m.Subject, m.Body,
		m.TemplateType, m.TemplateData, m.Code, m.Adapter).Scan(&m.ID, &m.CreatedAt)
	if err != nil {
		return m, fmt.Errorf("outbox insert: %w", err)
	}
	if err := adapter.Deliver(ctx, m); err != nil {
		_, _ = db.Exec(ctx, queries.Get("MarkFailed"), m.ID, err.Error())
		return m, fmt.Errorf("deliver %s via %s: %w", m.MessageType, m.Adapter, err)
	}
	if _, err := db.Exec(ctx, queries.Get("MarkDelivered"), m.ID); err != nil {
		return m, err
	}
	now := time.Now()
	m.DeliveredAt = &now
	return m, nil
}

// List returns the newest messages first, for one recipient or (to == "") for all.
func (o *Outbox) List(ctx context.Context, to string, limit int) ([]Message, error) {
	rows, err := o.db.Query(ctx, queries.Get("ListMessages"), to, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Message, error) {
		var m Message
		err := r.Scan(&m.ID, &m.Recipient, &m.MessageType, &m.Subject, &m.Body, &m.TemplateType,
			&m.TemplateData, &m.Code, &m.Adapter, &m.DeliveredAt, &m.Error, &m.CreatedAt)
		return m, err
	})
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
