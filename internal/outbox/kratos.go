package outbox

import (
	"encoding/json"
	"strings"

	"github.com/aporta/aporta/internal/i18n"
)

// KratosMessage is what Kratos's jsonnet body "function(ctx) ctx" posts.
type KratosMessage struct {
	Recipient    string          `json:"recipient"`
	Subject      string          `json:"subject"`
	Body         string          `json:"body"`
	TemplateType string          `json:"template_type"`
	TemplateData json.RawMessage `json:"template_data"`
	MessageType  string          `json:"message_type"`
}

// kratosCodeFlows are the flows whose "<flow>_code_valid" messages templates/auth_code.tmpl writes.
var kratosCodeFlows = map[string]bool{"verification": true, "recovery": true, "login": true, "registration": true}

// ComposeKratos writes a Kratos e-mail from Aporta's templates in the identity's language: its codes,
// the "no account for this address" notices, and any other message as Kratos's own text.
func ComposeKratos(in KratosMessage) (Message, error) {
	var data struct {
		Identity struct {
			Traits struct{ Locale string } `json:"traits"`
		} `json:"identity"`
		Traits struct{ Locale string } `json:"traits"` // registration codes carry the traits alone
	}
	_ = json.Unmarshal(in.TemplateData, &data)
	lang, ok := i18n.Parse(data.Identity.Traits.Locale)
	if !ok {
		lang, _ = i18n.Parse(data.Traits.Locale)
	}
	flow, valid := strings.CutSuffix(in.TemplateType, "_code_valid")
	switch code := ExtractCode(in.TemplateData); {
	case valid && kratosCodeFlows[flow] && code != "":
		return Compose(in.Recipient, "auth_code", lang, map[string]string{"Flow": flow, "Code": code})
	case in.TemplateType == "recovery_code_invalid" || in.TemplateType == "verification_code_invalid":
		return Compose(in.Recipient, "auth_unknown_address", lang, nil)
	default:
		return Compose(in.Recipient, "kratos_message", lang, map[string]string{"Subject": in.Subject, "Body": in.Body})
	}
}
