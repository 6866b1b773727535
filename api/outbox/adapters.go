package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/mail"
	"net/smtp"
	"strings"
	"time"
)

// OutboxOnly keeps messages in the outbox and sends nothing (dev and test).
type OutboxOnly struct{}

// Name implements Adapter.
func (OutboxOnly) Name() string { return "outbox" }

// Deliver implements Adapter.
func (OutboxOnly) Deliver(context.Context, Message) error { return nil }

// SMTP sends e-mail through an SMTP server (STARTTLS when offered, PLAIN auth when a user is set).
type SMTP struct {
	Addr, User, Password, From string
}

// Name implements Adapter.
func (*SMTP) Name() string { return "smtp" }

// Deliver implements Adapter.
func (s *SMTP) Deliver(_ context.Context, m Message) error {
	from, err := mail.ParseAddress(s.From)
	if err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	to, err := mail.ParseAddress(m.Recipient)
	if err != nil {
		return fmt.Errorf("recipient: %w", err)
	}
	var msg bytes.Buffer
	fmt.Fprintf(&msg, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\n",
		from.String(), to.String(), mime.QEncoding.Encode("utf-8", m.Subject), time.Now().Format(time.RFC1123Z))
	ctype := "text/plain"
	if strings.Contains(m.Body, "<html") || strings.Contains(m.Body, "<p") {
		ctype = "text/html"
	}
	fmt.Fprintf(&msg, "Content-Type: %s; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n", ctype)
	msg.WriteString(strings.ReplaceAll(m.Body, "\n", "\r\n"))
	var auth smtp.Auth
	if s.User != "" {
		host, _, _ := net.SplitHostPort(s.Addr)
		auth = smtp.PlainAuth("", s.User, s.Password, host)
	}
	return smtp.SendMail(s.Addr, auth, from.Address, []string{to.Address}, msg.Bytes())
}

// HTTPSMS posts {"to", "body"} as JSON to an SMS provider with a bearer token.
type HTTPSMS struct {
	URL, Token string
	Client     *http.Client
}

// NewHTTPSMS builds the adapter.
func NewHTTPSMS(url, token string) *HTTPSMS {
	return &HTTPSMS{URL: url, Token: token, Client: &http.Client{Timeout: 10 * time.Second}}
}

// Name implements Adapter.
func (*HTTPSMS) Name() string { return "http_sms" }

// Deliver implements Adapter.
func (h *HTTPSMS) Deliver(ctx context.Context, m Message) error {
	b, _ := json.Marshal(map[string]string{"to": m.Recipient, "body": m.Body})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if h.Token != "" {
		req.Header.Set("Authorization", "Bearer "+h.Token)
	}
	res, err := h.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("sms provider answered %s", res.Status)
	}
	return nil
}
