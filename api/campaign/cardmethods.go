package campaign

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/processing"
)

// Account is the organisation's gateway account as its forms use it: the gateway, the key donors'
// browsers tokenise cards with, and the client its brands and limits are read from.
type Account struct {
	Gateway   string // connections.MercadoPago, connections.CentralPos
	PublicKey string
	Client    interface {
		gateway.LimitsSource
		gateway.CardMethods
	}
	// Retried says a global processor retries the charges this account declines: the form also
	// tokenises the card at the card vault, for the processor.
	Retried bool
}

// Vault is the card vault's tokeniser as browsers reach it, and the platform's public key there.
type Vault struct{ URL, Key string }

// CheckoutVault is where a browser also tokenises the card when a global processor retries the
// account's declined charges: the card vault, with the platform's key and the organisation's country.
type CheckoutVault struct {
	URL     string `json:"url"`
	Key     string `json:"key"`
	Country string `json:"country"`
}

// AccountSource finds the account a form's organisation takes donations with;
// connections.ErrNotConnected when it has none (the form is closed).
type AccountSource func(ctx context.Context, f Form) (Account, error)

// ConnectedAccounts is the account of the organisation's active connection its forms charge
// through (connections.Store.ActiveConnection), whichever gateway it is at.
func ConnectedAccounts(clients *connections.Clients) AccountSource {
	return func(ctx context.Context, f Form) (Account, error) {
		c, conn, err := clients.ForScope(ctx, f.Scope, "", f.Campaign.Currency)
		if err != nil {
			return Account{}, err
		}
		return Account{Gateway: conn.Gateway, PublicKey: conn.PublicKey, Client: c}, nil
	}
}

// RoutedAccounts is the account of the integrated-payments processor a rule routes the form's
// campaign to (its tokeniser, public key, card brands and §9 amount range), else next's, retried
// when the global processor's retry rule is on.
func RoutedAccounts(p *processing.Processors, next AccountSource) AccountSource {
	return func(ctx context.Context, f Form) (Account, error) {
		a, err := p.CampaignAccount(ctx, f.Scope, f.Campaign.ID, f.Campaign.Currency)
		if err != nil {
			return Account{}, err
		}
		if a != nil {
			return Account{Gateway: charge.ProcessorGateway, PublicKey: a.PublicKey, Client: a}, nil
		}
		acc, err := next(ctx, f)
		if err != nil {
			return acc, err
		}
		r, err := p.CampaignRoute(ctx, f.Scope, f.Campaign.ID, f.Campaign.Currency)
		acc.Retried = r.Retry != nil
		return acc, err
	}
}

// account resolves the form's account; it is read once per request by whoever needs it.
func (s *Service) account(ctx context.Context, f Form) (Account, error) {
	if s.Accounts == nil {
		return Account{}, connections.ErrNotConnected
	}
	return s.Accounts(ctx, f)
}

// Checkout is what a browser needs to send a card to the organisation's gateway, never to us: the
// gateway, its tokeniser, the account's public key and the card brands it takes, and the card vault
// when a global processor retries the account's declines.
type Checkout struct {
	Gateway      string `json:"name"`
	TokenizerURL string `json:"tokenizer_url"`
	PublicKey    string `json:"public_key"`
	// PaymentMethods are the account's brands with the rules cards are checked by; empty when the
	// gateway could not say (the browser's own table applies).
	PaymentMethods []PublicCardMethod `json:"payment_methods"`
	Vault          *CheckoutVault     `json:"vault,omitempty"` // nil: no retry, the card goes to the gateway only
}

// Checkout is the form's checkout; connections.ErrNotConnected when its organisation has no account.
func (s *Service) Checkout(ctx context.Context, f Form) (Checkout, error) {
	a, err := s.account(ctx, f)
	if err != nil {
		return Checkout{PaymentMethods: []PublicCardMethod{}}, err
	}
	co, _ := s.checkoutOf(ctx, f, a)
	return co, nil
}

// checkoutOf is the account's checkout; answered is false when the gateway did not give its card methods.
func (s *Service) checkoutOf(ctx context.Context, f Form, a Account) (_ Checkout, answered bool) {
	methods, answered := s.cardMethods(ctx, f, a)
	co := Checkout{Gateway: a.Gateway, TokenizerURL: s.Tokenizers[a.Gateway], PublicKey: a.PublicKey, PaymentMethods: methods}
	if a.Retried && s.Vault.URL != "" {
		co.Vault = &CheckoutVault{URL: s.Vault.URL, Key: s.Vault.Key, Country: f.Scope.Country}
	}
	return co, answered
}

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

// cardMethodsWait bounds how long a read waits for the gateway's card methods: past it the form
// loads with its own table rather than make the donor wait.
const cardMethodsWait = 3 * time.Second

// cardMethods are the account's card rules (the adapter caches them per account); none while the
// gateway cannot say, which is logged (answered false).
func (s *Service) cardMethods(ctx context.Context, f Form, a Account) (_ []PublicCardMethod, answered bool) {
	out := []PublicCardMethod{}
	ctx, cancel := context.WithTimeout(ctx, cardMethodsWait)
	defer cancel()
	methods, err := a.Client.PaymentMethods(ctx)
	if err != nil {
		s.log().WarnContext(ctx, "campaign: gateway card methods, the form uses its own table", "org", f.Org.ID, "error", err)
		return out, false
	}
	for _, m := range methods {
		out = append(out, PublicCardMethod{ID: m.ID, Name: m.Name, PaymentType: m.PaymentType, BINPattern: m.BINPattern,
			ExclusionPattern: m.ExclusionPattern, Lengths: m.Lengths, SecurityCodeLength: m.SecurityCodeLength, Luhn: m.Luhn})
	}
	return out, true
}

// limitsOf are the account's donation limits, or the defaults while the form has no account or its
// gateway does not answer (logged; answered false).
func (s *Service) limitsOf(ctx context.Context, f Form, a Account, err error) (_ Limits, answered bool) {
	if err == nil {
		var l gateway.AmountLimits
		if l, err = a.Client.AmountLimits(ctx); err == nil {
			return Limits{Min: l.Min.Minor, Max: l.Max.Minor}, true
		}
	}
	if errors.Is(err, connections.ErrNotConnected) { // without an account the form is closed anyway
		return DefaultLimits(f.Campaign.Currency), true
	}
	s.log().WarnContext(ctx, "campaign: gateway amount limits, using the defaults", "org", f.Org.ID, "error", err)
	return DefaultLimits(f.Campaign.Currency), false
}

func (s *Service) log() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}
