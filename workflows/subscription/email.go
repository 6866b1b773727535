package subscription

import (
	"fmt"
	"math"
	"strings"
	"time"
)

type text struct{ subject, body string }

// messages: %[1]s organisation, %[2]d days left, %[3]s end date, %[4]s plans URL, %[5]s plan.
var messages = map[string]map[string]text{
	EmailTrialStarted: {
		"es": {"Tu prueba de Aporta Essential comenzó", "Hola, %[1]s:\n\nTienes 90 días de prueba gratis del plan Essential, hasta el %[3]s.\nConoce los planes: %[4]s\n"},
		"en": {"Your Aporta Essential trial has started", "Hello, %[1]s:\n\nYou have a free 90-day trial of the Essential plan, until %[3]s.\nSee the plans: %[4]s\n"},
		"pt": {"Seu teste do Aporta Essential começou", "Olá, %[1]s:\n\nVocê tem 90 dias de teste grátis do plano Essential, até %[3]s.\nConheça os planos: %[4]s\n"},
	},
	EmailTrialEnding: {
		"es": {"Tu prueba de Aporta termina en %[2]d días", "Hola, %[1]s:\n\nTu prueba del plan Essential termina el %[3]s (en %[2]d días). Después, si no eliges un plan, se aplicará una comisión del 3,5%% sobre las donaciones vigentes y no podrás recibir donaciones nuevas.\nElige tu plan: %[4]s\n"},
		"en": {"Your Aporta trial ends in %[2]d days", "Hello, %[1]s:\n\nYour Essential trial ends on %[3]s (in %[2]d days). After that, unless you choose a plan, a 3.5%% commission applies to current donations and you cannot receive new donations.\nChoose your plan: %[4]s\n"},
		"pt": {"Seu teste do Aporta termina em %[2]d dias", "Olá, %[1]s:\n\nSeu teste do plano Essential termina em %[3]s (em %[2]d dias). Depois, se você não escolher um plano, será aplicada uma comissão de 3,5%% sobre as doações vigentes e você não poderá receber novas doações.\nEscolha seu plano: %[4]s\n"},
	},
	EmailTrialEnded: {
		"es": {"Tu prueba de Aporta terminó", "Hola, %[1]s:\n\nTu prueba del plan Essential terminó el %[3]s. Desde ahora se aplica una comisión del 3,5%% sobre las donaciones vigentes y no puedes recibir donaciones nuevas hasta que elijas un plan.\nElige tu plan: %[4]s\n"},
		"en": {"Your Aporta trial has ended", "Hello, %[1]s:\n\nYour Essential trial ended on %[3]s. From now on a 3.5%% commission applies to current donations and you cannot receive new donations until you choose a plan.\nChoose your plan: %[4]s\n"},
		"pt": {"Seu teste do Aporta terminou", "Olá, %[1]s:\n\nSeu teste do plano Essential terminou em %[3]s. A partir de agora é aplicada uma comissão de 3,5%% sobre as doações vigentes e você não pode receber novas doações até escolher um plano.\nEscolha seu plano: %[4]s\n"},
	},
	EmailPlanActive: {
		"es": {"Tu plan de Aporta está activo", "Hola, %[1]s:\n\nTu plan %[5]s está activo. Ya puedes recibir donaciones nuevas y no se aplica la comisión posterior a la prueba.\n"},
		"en": {"Your Aporta plan is active", "Hello, %[1]s:\n\nYour %[5]s plan is active. You can receive new donations again and the post-trial commission no longer applies.\n"},
		"pt": {"Seu plano do Aporta está ativo", "Olá, %[1]s:\n\nSeu plano %[5]s está ativo. Você já pode receber novas doações e a comissão pós-teste não se aplica mais.\n"},
	},
}

// render builds the subject and body of e in lang (Spanish when unknown).
func render(lang string, e Email, org, publicURL string, now time.Time) (string, string) {
	byLang, ok := messages[e.Kind]
	if !ok {
		return e.Kind, e.Kind
	}
	t, ok := byLang[lang]
	if !ok {
		t = byLang["es"]
	}
	days := 0
	date := ""
	if !e.TrialEndsAt.IsZero() {
		days = int(math.Ceil(e.TrialEndsAt.Sub(now).Hours() / 24))
		days = max(days, 0)
		date = e.TrialEndsAt.UTC().Format("02/01/2006")
	}
	args := []any{org, days, date, publicURL + "/pricing", e.PlanCode}
	return format(t.subject, args), format(t.body, args)
}

func format(s string, args []any) string {
	if !strings.Contains(s, "%") {
		return s
	}
	return fmt.Sprintf(s, args...)
}
