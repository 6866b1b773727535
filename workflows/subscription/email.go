package subscription

import (
	"math"
	"time"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
)

// compose renders e for the recipient in the organisation's language (Spanish when unknown).
func compose(to, lang string, e Email, org, publicURL string, now time.Time) (outbox.Message, error) {
	l, _ := i18n.Parse(lang)
	days := 0
	date := ""
	if !e.TrialEndsAt.IsZero() {
		days = max(int(math.Ceil(e.TrialEndsAt.Sub(now).Hours()/24)), 0)
		date = e.TrialEndsAt.UTC().Format("02/01/2006")
	}
	return outbox.Compose(to, e.Kind, l, map[string]any{
		"Org": org, "Days": days, "EndsOn": date, "URL": publicURL + "/pricing", "Plan": e.PlanCode,
	})
}
