package campaign

import (
	"context"
	"log/slog"
	"time"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/gateway"
)

// PublicCardMethod is a card brand the campaign's gateway account takes, with the rules the form
// detects and checks a card number by (gateway.CardMethod). The card itself never reaches us: the
// form tokenises it at the gateway.
type PublicCardMethod struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	PaymentType string `json:"payment_type"`
	// BINPattern and ExclusionPattern are regular expressions over the number's leading digits
	// (the brand's when it matches the first and not the second); "" when the gateway gives none.
	BINPattern         string `json:"bin_pattern"`
	ExclusionPattern   string `json:"exclusion_pattern"`
	Lengths            []int  `json:"lengths"`
	SecurityCodeLength int    `json:"security_code_length"`
	Luhn               bool   `json:"luhn"`
}

// publicCardMethods are the form's card rules; none (the form's own table applies) while the
// gateway cannot say.
func (s *Service) publicCardMethods(ctx context.Context, f Form) []PublicCardMethod {
	out := []PublicCardMethod{}
	if s.CardMethods == nil {
		return out
	}
	methods, ok := s.CardMethods(ctx, f)
	if !ok {
		return out
	}
	for _, m := range methods {
		out = append(out, PublicCardMethod{ID: m.ID, Name: m.Name, PaymentType: m.PaymentType, BINPattern: m.BINPattern,
			ExclusionPattern: m.ExclusionPattern, Lengths: m.Lengths, SecurityCodeLength: m.SecurityCodeLength, Luhn: m.Luhn})
	}
	return out
}

// cardMethodsWait bounds how long a public read waits for the gateway's card methods: past it the
// form loads with its own table rather than make the donor wait.
const cardMethodsWait = 3 * time.Second

// GatewayCardMethods is a CardMethods reading the brands from the organisation's gateway account
// (charge.Gateways; the adapter caches them per account). A gateway that cannot list them, or
// does not answer in time, leaves the form to its own table; the failure is logged.
func GatewayCardMethods(gateways charge.Gateways, log *slog.Logger) func(context.Context, Form) ([]gateway.CardMethod, bool) {
	return func(ctx context.Context, f Form) ([]gateway.CardMethod, bool) {
		ctx, cancel := context.WithTimeout(ctx, cardMethodsWait)
		defer cancel()
		gw, err := gateways.Gateway(ctx, f.Org.ID, f.Campaign.Currency)
		if err != nil {
			log.WarnContext(ctx, "campaign: gateway for card methods", "org", f.Org.ID, "error", err)
			return nil, false
		}
		cm, ok := gw.(gateway.CardMethods)
		if !ok {
			return nil, false
		}
		methods, err := cm.PaymentMethods(ctx)
		if err != nil {
			log.WarnContext(ctx, "campaign: gateway card methods, the form uses its own table", "org", f.Org.ID, "error", err)
			return nil, false
		}
		return methods, true
	}
}
