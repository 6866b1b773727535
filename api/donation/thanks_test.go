package donation_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/campaign"
)

// A campaign's thank-you e-mail text and a donor's name carrying markup reach the donor as text: the
// HTML part escapes them (no script, no foreign link), the text part keeps them verbatim.
func TestThanksEmailEscapesMarkupInCampaignTextAndDonorName(t *testing.T) {
	t.Parallel()
	const text = `<a href="https://evil.test/card">Confirma tu tarjeta</a> <script>alert(1)</script> Gracias {nombre}`
	f := setup(t, func(in *campaign.Input) { in.Thanks.Email = text })
	mail := email()
	p := payload(token(t, f.cfg, "APRO"), 0, 1500, mail, uuid.NewString())
	p["donor"].(map[string]any)["first_name"] = `Ana<img src=x onerror=alert(2)>`
	a := post(t, f.srv.URL+"/d/"+f.slug, p)
	require.Equal(t, http.StatusCreated, a.Status, a.Body)

	var body, html string
	require.Eventually(t, func() bool { // queued just after the answer
		return f.tt.Directory().QueryRow(context.Background(),
			"SELECT body, html FROM outbox_messages WHERE recipient = $1 AND template_type = 'donation_thanks'", mail).Scan(&body, &html) == nil
	}, 10*time.Second, 100*time.Millisecond)
	name := `Ana<img src=x onerror=alert(2)>`
	require.Contains(t, body, `<a href="https://evil.test/card">Confirma tu tarjeta</a> <script>alert(1)</script> Gracias `+name)
	require.NotContains(t, html, "<script")
	require.NotContains(t, html, "<img")
	require.NotContains(t, html, `href="https://evil.test`)
	require.Contains(t, html, `&lt;a href=&#34;https://evil.test/card&#34;&gt;Confirma tu tarjeta&lt;/a&gt; &lt;script&gt;alert(1)&lt;/script&gt; Gracias Ana&lt;img src=x onerror=alert(2)&gt;`)
}
