package outbox_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
)

const (
	script = `<script>alert("pwned")</script>`
	anchor = `<a href="https://evil.test/login">Confirm your card</a>`
)

// A campaign's thank-you text and a donor's name with markup reach the donor as text: escaped in
// the HTML part, verbatim in the text part, and a subject with a line break stays one header.
func TestThanksEmailWithScriptAndLinkInCampaignTextIsEscaped(t *testing.T) {
	t.Parallel()
	msg, err := outbox.Compose("ana@example.test", "donation_thanks", i18n.ES, map[string]any{
		"Subject": "Gracias " + script + "\r\nBcc: victim@example.test", "Message": "¡Gracias " + script + "!\n\n" + anchor,
		"Amount": "$ 1.500,00", "Frequency": "mensual", "URL": "https://aporta.test/d/x/thanks?ref=r&s=1",
	})
	require.NoError(t, err)
	smtp := newFakeSMTP(t, false)
	a := &outbox.SMTP{Addr: smtp.Addr, From: "Aporta <no-reply@aporta.test>", Timeout: 5 * time.Second}
	require.NoError(t, a.Deliver(context.Background(), msg))
	require.Len(t, smtp.Messages(), 1)
	header, body := parts(t, smtp.Messages()[0])

	require.Empty(t, header.Get("Bcc"), "no header injected through the subject")
	require.Contains(t, body["text/plain"], "¡Gracias "+script+"!\n\n"+anchor)
	require.Contains(t, body["text/plain"], "Tu comprobante: https://aporta.test/d/x/thanks?ref=r&s=1")

	html := body["text/html"]
	require.NotContains(t, html, "<script")
	require.NotContains(t, html, `href="https://evil.test`)
	require.Contains(t, html, "&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;")
	require.Contains(t, html, "&lt;a href=&#34;https://evil.test/login&#34;&gt;")
	require.Contains(t, html, `<a href="https://aporta.test/d/x/thanks?ref=r&amp;s=1"`, "the receipt button")
	require.Equal(t, 1, strings.Count(html, "<a "), "the only link is the receipt's")
}

// A URL the template puts in a link cannot run script.
func TestEmailButtonRefusesJavascriptURL(t *testing.T) {
	t.Parallel()
	msg, err := outbox.Compose("x@example.test", "leads_export", i18n.EN, map[string]any{"URL": "javascript:alert(1)"})
	require.NoError(t, err)
	require.NotContains(t, msg.HTML, `href="javascript:`)
	require.Contains(t, msg.HTML, `href="#ZgotmplZ"`)
	require.Contains(t, msg.Body, "javascript:alert(1)", "the text part is text")
}

// Every e-mail exists in the three languages.
func TestEveryTemplateRendersInEachLanguage(t *testing.T) {
	t.Parallel()
	data := map[string]any{"Org": "Org", "Document": "Estatuto", "Reason": "r", "DueAt": "d", "URL": "https://aporta.test/x",
		"Inviter": "Ana", "Code": "123456", "Days": 7, "EndsOn": "01/01/2027", "Plan": "essential", "Flow": "recovery",
		"Subject": "s", "Message": "m", "Amount": "$ 1", "Frequency": "mensual", "Body": "b", "Gateway": "MercadoPago", "Account": "TESTUSER1", "Agency": "Equipo", "Login": "https://aporta.test/agency"}
	kinds := []string{"account_enabled", "document_approved", "document_rejected", "staff_review_reminder", "user_invitation",
		"leads_export", "donation_thanks", "trial_started", "trial_ending", "trial_ended", "plan_active", "auth_code",
		"auth_unknown_address", "kratos_message", "gateway_needs_reconnection", "subscription_payment_failed", "agency_welcome"}
	for _, kind := range kinds {
		for _, l := range []i18n.Lang{i18n.ES, i18n.EN, i18n.PT} {
			m := composeWhole(t, kind, l, data)
			require.Contains(t, m.HTML, `<html lang="`+string(l)+`">`)
		}
	}
}

// composeWhole composes kind in l and requires every part written out: no part empty, no missing
// catalogue key, no misformatted value.
func composeWhole(t *testing.T, kind string, l i18n.Lang, data map[string]any) outbox.Message {
	t.Helper()
	m, err := outbox.Compose("x@example.test", kind, l, data)
	require.NoError(t, err, kind)
	for _, s := range []string{m.Subject, m.Body, m.HTML} {
		require.NotEmpty(t, s, kind)
		require.NotContains(t, s, "[missing:", kind)
		require.NotContains(t, s, "%!", kind)
	}
	return m
}

// Renders of one kind in several languages at once each read their own language's words, however often the kind's
// templates were bound before (each language's are kept).
func TestComposeInParallelKeepsEachLanguage(t *testing.T) {
	t.Parallel()
	data := map[string]any{"Subject": "", "Message": "", "Amount": "$ 1.500,00", "Frequency": "", "URL": "https://aporta.test/r"}
	want := map[i18n.Lang]string{}
	for _, lang := range []i18n.Lang{i18n.ES, i18n.EN, i18n.PT} {
		msg, err := outbox.Compose("ana@example.test", "donation_thanks", lang, data)
		require.NoError(t, err)
		want[lang] = msg.Body
	}
	require.NotEqual(t, want[i18n.ES], want[i18n.EN])
	errs := make(chan error, 30)
	for i := range 30 {
		lang := []i18n.Lang{i18n.ES, i18n.EN, i18n.PT}[i%3]
		go func() {
			msg, err := outbox.Compose("ana@example.test", "donation_thanks", lang, data)
			if err == nil && msg.Body != want[lang] {
				err = fmt.Errorf("%s: %q, want %q", lang, msg.Body, want[lang])
			}
			errs <- err
		}()
	}
	for range 30 {
		require.NoError(t, <-errs)
	}
}
