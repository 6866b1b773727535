package outbox_test

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants/tenantstest"
)

// smtpConfig is the stack's configuration delivering e-mail to addr.
func smtpConfig(t *testing.T, addr string) *config.Config {
	c := *tenantstest.Config(t)
	c.MailAdapter, c.SMTPAddr, c.SMTPTimeout = "smtp", addr, 5*time.Second
	return &c
}

// namedPool is a directory pool whose sessions pg_stat_activity shows under app.
func namedPool(t *testing.T, app string) *pgxpool.Pool {
	pc, err := pgxpool.ParseConfig(tenantstest.Config(t).DirectoryDSN)
	require.NoError(t, err)
	pc.ConnConfig.RuntimeParams["application_name"] = app
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

func exportMail(t *testing.T, to string) outbox.Message {
	m, err := outbox.Compose(to, "leads_export", i18n.ES, map[string]any{"URL": "https://aporta.test/api/exports/x"})
	require.NoError(t, err)
	return m
}

func recipient(prefix string) string { return prefix + "-" + uuid.NewString()[:8] + "@example.test" }

// An SMTP server that never answers cannot hold the caller past the timeout, nor a database
// transaction while it waits: the message is committed before delivery starts. The next sweep
// delivers it once a server answers.
func TestSilentSMTPServerTimesOutWithoutHoldingATransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := tenantstest.Open(t).Directory()
	app := "outbox-test-" + uuid.NewString()[:8]
	silent := newFakeSMTP(t, true)
	cfg := smtpConfig(t, silent.Addr)
	cfg.SMTPTimeout = time.Second
	o := outbox.New(namedPool(t, app), cfg)
	to := recipient("silent")

	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- o.SendOnce(ctx, "test-silent/"+to, exportMail(t, to)) }()
	<-silent.accept // the delivery is waiting on the server
	var kept, busy int
	require.NoError(t, dir.QueryRow(ctx, `SELECT count(*) FROM outbox_messages WHERE recipient = $1`, to).Scan(&kept))
	require.Equal(t, 1, kept, "the message is committed before the delivery")
	require.NoError(t, dir.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'`, app).Scan(&busy))
	require.Zero(t, busy, "no session in a transaction (or a query) while the SMTP server is silent")
	select {
	case err := <-done:
		require.NoError(t, err, "a failed delivery is the outbox's to retry, not the caller's error")
	case <-time.After(30 * time.Second):
		t.Fatal("SendOnce still waits on a silent SMTP server")
	}
	require.Less(t, time.Since(start), 10*time.Second)
	var errText string
	var attempts int
	var delivered *time.Time
	require.NoError(t, dir.QueryRow(ctx, `SELECT error, attempts, delivered_at FROM outbox_messages WHERE recipient = $1`, to).Scan(&errText, &attempts, &delivered))
	require.Contains(t, errText, "timeout")
	require.Equal(t, 1, attempts)
	require.Nil(t, delivered)

	// Retry: due now, and a server that answers.
	good := newFakeSMTP(t, false)
	retry := outbox.New(dir, smtpConfig(t, good.Addr))
	_, err := dir.Exec(ctx, `UPDATE outbox_messages SET next_attempt_at = now() WHERE recipient = $1`, to)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, err := retry.DeliverPending(ctx, 10)
		require.NoError(t, err)
		return dir.QueryRow(ctx, `SELECT attempts, delivered_at FROM outbox_messages WHERE recipient = $1`, to).Scan(&attempts, &delivered) == nil && delivered != nil
	}, 20*time.Second, 100*time.Millisecond)
	require.Equal(t, 2, attempts)
	// The directory is shared with the packages testing beside this one: DeliverPending may deliver their due
	// messages too, so only this recipient's are counted.
	sentTo := func() int {
		n := 0
		for _, m := range good.Messages() {
			if strings.Contains(m, "To: <"+to+">") {
				n++
			}
		}
		return n
	}
	require.Equal(t, 1, sentTo())
	// A delivered message is not retried again.
	_, err = retry.DeliverPending(ctx, 10)
	require.NoError(t, err)
	require.Equal(t, 1, sentTo())
}

// A donor's double submit (or a retried activity) racing with one key sends one e-mail.
func TestSendOnceDoubleSubmitSendsOneEmail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt := tenantstest.Open(t)
	smtp := newFakeSMTP(t, false)
	mailer := outbox.Mailer{Outbox: outbox.New(tt.Directory(), smtpConfig(t, smtp.Addr)), Directory: tt.Directory()}
	to := recipient("double")
	key := "test-double/" + to
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { require.NoError(t, mailer.SendOnce(ctx, key, exportMail(t, to))) })
	}
	wg.Wait()
	require.NoError(t, mailer.SendOnce(ctx, key, exportMail(t, to)))
	require.Len(t, smtp.Messages(), 1)
	var n int
	require.NoError(t, tt.Directory().QueryRow(ctx, `SELECT count(*) FROM outbox_messages WHERE recipient = $1`, to).Scan(&n))
	require.Equal(t, 1, n)
	require.NoError(t, tt.Directory().QueryRow(ctx, `SELECT count(*) FROM workflow_emails k JOIN outbox_messages m ON m.id = k.outbox_id
		WHERE k.key = $1 AND m.recipient = $2`, key, to).Scan(&n))
	require.Equal(t, 1, n, "the key names the message it sent")
}

// In production the invitee gets the code, and the outbox keeps neither the code nor the text
// that carried it; dev and test keep them for the mailbox.
func TestProductionOutboxKeepsNoCodeOnceDelivered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := tenantstest.Open(t).Directory()
	smtp := newFakeSMTP(t, false)
	const code = "482913"
	recoveryCode := func(to string) outbox.Message {
		m, err := outbox.Compose(to, "auth_code", i18n.ES, map[string]any{"Flow": "recovery", "Code": code})
		require.NoError(t, err)
		m.TemplateData = json.RawMessage(`{"recovery_code":"` + code + `","recovery_link":"https://aporta.test/x?flow=f1"}`)
		m.Code = code
		return m
	}
	type row struct {
		Subject, Body, HTML, Code string
		Data                      map[string]any
		Delivered                 *time.Time
	}
	read := func(to string) row {
		var r row
		require.NoError(t, dir.QueryRow(ctx, `SELECT subject, body, html, code, template_data, delivered_at FROM outbox_messages WHERE recipient = $1`, to).
			Scan(&r.Subject, &r.Body, &r.HTML, &r.Code, &r.Data, &r.Delivered))
		return r
	}

	prod := smtpConfig(t, smtp.Addr)
	prod.Env = "production"
	to := recipient("prod")
	_, err := outbox.New(dir, prod).Send(ctx, recoveryCode(to))
	require.NoError(t, err)
	require.Len(t, smtp.Messages(), 1)
	require.Contains(t, smtp.Messages()[0], code, "the person gets the code")
	r := read(to)
	require.NotNil(t, r.Delivered)
	require.Equal(t, "Tu código para recuperar tu cuenta de Aporta", r.Subject)
	require.Empty(t, r.Body)
	require.Empty(t, r.HTML)
	require.Empty(t, r.Code)
	require.Empty(t, r.Data)

	dev := recipient("dev")
	_, err = outbox.New(dir, tenantstest.Config(t)).Send(ctx, recoveryCode(dev))
	require.NoError(t, err)
	r = read(dev)
	require.Equal(t, code, r.Code)
	require.Contains(t, r.Body, code)
}

// In production a message whose last attempt fails keeps no text either. Not parallel: its sweep
// would take the other tests' pending messages.
func TestProductionOutboxForgetsAGivenUpMessage(t *testing.T) {
	ctx := context.Background()
	dir := tenantstest.Open(t).Directory()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close()) // nothing listens there: every delivery fails at once
	prod := smtpConfig(t, ln.Addr().String())
	prod.Env = "production"
	o := outbox.New(dir, prod)
	to := recipient("given-up")
	m, err := o.Send(ctx, exportMail(t, to))
	require.NoError(t, err)
	require.NotEmpty(t, m.Error)
	var body string
	require.NoError(t, dir.QueryRow(ctx, `SELECT body FROM outbox_messages WHERE id = $1`, m.ID).Scan(&body))
	require.NotEmpty(t, body, "kept for the retries")

	_, err = dir.Exec(ctx, `UPDATE outbox_messages SET attempts = $2 - 1, next_attempt_at = now() WHERE id = $1`, m.ID, outbox.MaxAttempts)
	require.NoError(t, err)
	_, err = o.DeliverPending(ctx, 100)
	require.NoError(t, err)
	var html string
	var attempts int
	var next *time.Time
	require.NoError(t, dir.QueryRow(ctx, `SELECT body, html, attempts, next_attempt_at FROM outbox_messages WHERE id = $1`, m.ID).Scan(&body, &html, &attempts, &next))
	require.Equal(t, outbox.MaxAttempts, attempts)
	require.Nil(t, next, "given up")
	require.Empty(t, body)
	require.Empty(t, html)
}
