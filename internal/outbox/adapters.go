package outbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/mail"
	"net/smtp"
	"net/textproto"
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
// The whole exchange, dial included, ends within Timeout: a silent server cannot hold a caller.
type SMTP struct {
	Addr, User, Password, From string
	Timeout                    time.Duration
}

// Name implements Adapter.
func (*SMTP) Name() string { return "smtp" }

// Deliver implements Adapter.
func (s *SMTP) Deliver(ctx context.Context, m Message) error {
	from, err := mail.ParseAddress(s.From)
	if err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	to, err := mail.ParseAddress(m.Recipient)
	if err != nil {
		return fmt.Errorf("recipient: %w", err)
	}
	msg, err := mimeMessage(from, to, m, time.Now())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	// A cancelled caller interrupts the exchange at once, not at the deadline.
	defer context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })()
	host, _, _ := net.SplitHostPort(s.Addr)
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		return err
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(&tls.Config{ServerName: host}); err != nil {
			return err
		}
	}
	if s.User != "" {
		if err := c.Auth(smtp.PlainAuth("", s.User, s.Password, host)); err != nil {
			return err
		}
	}
	if err := c.Mail(from.Address); err != nil {
		return err
	}
	if err := c.Rcpt(to.Address); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// mimeMessage writes the e-mail: multipart/alternative with the text part first and the HTML part
// last (the one clients prefer), or text/plain alone when there is no HTML (never HTML guessed from
// the text). Parts are quoted-printable; the Message-ID follows the outbox row, so a retried
// delivery is recognisably the same message.
func mimeMessage(from, to *mail.Address, m Message, now time.Time) ([]byte, error) {
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", from.String())
	header("To", to.String())
	// A subject is one header line, whatever a campaign's text holds.
	header("Subject", mime.QEncoding.Encode("utf-8", strings.Join(strings.Fields(m.Subject), " ")))
	header("Date", now.Format(time.RFC1123Z))
	_, domain, _ := strings.Cut(from.Address, "@")
	header("Message-ID", fmt.Sprintf("<outbox-%d@%s>", m.ID, domain))
	header("MIME-Version", "1.0")
	part := func(w io.Writer, body string) error {
		qp := quotedprintable.NewWriter(w)
		if _, err := io.WriteString(qp, body); err != nil {
			return err
		}
		return qp.Close()
	}
	if m.HTML == "" {
		header("Content-Type", "text/plain; charset=utf-8")
		header("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		err := part(&b, m.Body)
		return b.Bytes(), err
	}
	mw := multipart.NewWriter(&b)
	header("Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": mw.Boundary()}))
	b.WriteString("\r\n")
	for _, p := range []struct{ ctype, body string }{{"text/plain; charset=utf-8", m.Body}, {"text/html; charset=utf-8", m.HTML}} {
		w, err := mw.CreatePart(textproto.MIMEHeader{"Content-Type": {p.ctype}, "Content-Transfer-Encoding": {"quoted-printable"}})
		if err != nil {
			return nil, err
		}
		if err := part(w, p.body); err != nil {
			return nil, err
		}
	}
	err := mw.Close()
	return b.Bytes(), err
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
