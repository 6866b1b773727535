// Package processing is integrated payments' money path: each processor an organisation adds gets a
// merchant account at the processor (dLocal), whose keys are kept sealed (internal/secrets), and its
// rules route donations to it (charge.Router): a campaign a processor's rule names is charged
// through that processor; a charge the connected gateway declines is retried once through the global
// processor when its retry rule is on, charging the donor's card saved there from the card vault
// (SaveRetryCard). Every charge through a processor carries its statement
// descriptor (§9, internal/descriptor) and records its gateway option's fee.
package processing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/descriptor"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/requestonce"
	"github.com/aporta/aporta/internal/secrets"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Families: the gateway options of integrated payments.
const (
	Local  = "local_payments"
	Global = "global_payments"
)

// Processors opens merchant accounts and charges through them.
type Processors struct {
	Box    *secrets.Box
	DLocal dlocal.Config // the platform's dLocal account

	mu       sync.Mutex
	accounts map[accountKey]*dlocal.Account
}

var _ charge.Router = (*Processors)(nil)

// New charges through the platform's dLocal account of cfg, sealing merchants' keys with box.
func New(cfg *config.Config, box *secrets.Box) *Processors {
	return &Processors{Box: box, DLocal: dlocal.Config{BaseURL: cfg.DLocalURL, Login: cfg.DLocalLogin, TransKey: cfg.DLocalTransKey,
		Secret: cfg.DLocalSecret}}
}

type accountKey struct {
	processor uuid.UUID
	login     string
	currency  string
}

// Merchant is a new processor's merchant account as it is stored: the public key and login in
// clear, the keys sealed to the processor's row.
type Merchant struct {
	Login, PublicKey string
	Sealed           secrets.Sealed
}

// keys is the sealed part of a merchant account.
type keys struct {
	TransKey string `json:"x_trans_key"`
	Secret   string `json:"secret_key"`
}

// aad binds sealed keys to their processor: a blob copied to another row does not open.
func aad(orgID, id uuid.UUID) []byte {
	return []byte("processor/" + orgID.String() + "/" + id.String())
}

// Onboard opens the merchant account of the organisation's new processor id, named after the
// organisation, charging feeBps of each paid payment, and seals its keys for the processor's row.
func (p *Processors) Onboard(ctx context.Context, scope tenants.Scope, id uuid.UUID, name string, feeBps int32) (Merchant, error) {
	m, err := dlocal.Onboard(ctx, p.DLocal, name, scope.Country, feeBps)
	if err != nil {
		return Merchant{}, err
	}
	plain, err := json.Marshal(keys{TransKey: m.TransKey, Secret: m.Secret})
	if err != nil {
		return Merchant{}, err
	}
	sealed, err := p.Box.Seal(ctx, plain, aad(scope.OrgID, id))
	if err != nil {
		return Merchant{}, err
	}
	return Merchant{Login: m.Login, PublicKey: m.PublicKey, Sealed: sealed}, nil
}

// account is the processor's merchant account charging in currency, built once per processor,
// login and currency (opening the keys may call a key service: never under the lock).
func (p *Processors) account(ctx context.Context, scope tenants.Scope, r sharddb.ProcessorRoutesRow, currency string) (*dlocal.Account, error) {
	k := accountKey{r.ID, r.MerchantLogin, currency}
	p.mu.Lock()
	a, ok := p.accounts[k]
	p.mu.Unlock()
	if ok {
		return a, nil
	}
	plain, err := p.Box.Open(ctx, secrets.Sealed{KeyID: r.KeyID, Blob: r.Secret}, aad(scope.OrgID, r.ID))
	if err != nil {
		return nil, fmt.Errorf("processor %s: %w", r.ID, err)
	}
	var ks keys
	if err := json.Unmarshal(plain, &ks); err != nil {
		return nil, fmt.Errorf("processor %s: %w", r.ID, err)
	}
	a, err = dlocal.NewAccount(p.DLocal, dlocal.Merchant{Login: r.MerchantLogin, TransKey: ks.TransKey, Secret: ks.Secret,
		PublicKey: r.PublicKey}, scope.Country, currency)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.accounts == nil {
		p.accounts = map[accountKey]*dlocal.Account{}
	}
	p.accounts[k] = a
	return a, nil
}

// processor is a route row as charge uses it.
func (p *Processors) processor(ctx context.Context, scope tenants.Scope, r sharddb.ProcessorRoutesRow, currency string) (*charge.Processor, error) {
	a, err := p.account(ctx, scope, r, currency)
	if err != nil {
		return nil, err
	}
	rule, _ := descriptor.Of(r.Family, scope.Country)
	return &charge.Processor{ID: r.ID, Family: r.Family, Gateway: a, Descriptor: rule.Statement(r.SoftDescriptor), FeeBps: r.FeeBps}, nil
}

// Route is the route of a donation of the campaign its row names.
func (p *Processors) Route(ctx context.Context, scope tenants.Scope, donationID uuid.UUID, currency string) (charge.Route, error) {
	campaignID, err := requestonce.Read(ctx, campaignOf{scope.OrgID, donationID}, func() (uuid.UUID, error) {
		return scope.Store().DonationCampaignID(ctx, sharddb.DonationCampaignIDParams{OrganizationID: scope.OrgID, ID: donationID})
	})
	if errors.Is(err, dberr.ErrNotFound) {
		return charge.Route{}, nil // a charge of no donation (an agency's, billing's): the connected gateway's
	}
	if err != nil {
		return charge.Route{}, err
	}
	r, err := p.CampaignRoute(ctx, scope, campaignID, currency)
	if err != nil || r.Retry == nil {
		return r, err
	}
	card, err := scope.Store().DonationProcessorCard(ctx, sharddb.DonationProcessorCardParams{OrganizationID: scope.OrgID,
		DonationID: donationID, ProcessorID: r.Retry.ID})
	if errors.Is(err, dberr.ErrNotFound) {
		r.Retry = nil // the donor's card is not at the processor: nothing to retry with
		return r, nil
	}
	if err != nil {
		return charge.Route{}, err
	}
	r.Retry.Gateway = savedCard{Gateway: r.Retry.Gateway, card: card.CardID, customer: card.CustomerID}
	return r, nil
}

// savedCard charges the donor's card saved at the processor (SaveRetryCard), whichever card the
// charge names: a retry carries the connected gateway's card, which the processor cannot charge.
type savedCard struct {
	charge.Gateway
	card, customer string
}

func (s savedCard) Charge(ctx context.Context, c gateway.Charge) (gateway.Payment, error) {
	c.CardID, c.Token, c.CustomerID, c.Document = s.card, "", s.customer, ""
	return s.Gateway.Charge(ctx, c)
}

// RetryCard is a donor's card saved at the processor that retries the campaign's declined charges.
type RetryCard struct {
	ProcessorID        uuid.UUID
	CardID, CustomerID string
}

// ErrCardMismatch is a card-vault token of another card than the one the donor's gateway saved.
var ErrCardMismatch = errors.New("processing: the vault's card is not the gateway's")

// SaveRetryCard saves the card behind a card-vault token (the donor's browser tokenised the card at
// the vault as well as at the organisation's gateway) at the global processor that retries the
// campaign's declined charges, so a retry charges the very card the donor gave, in this period and
// later ones. The vault's card must be the gateway's (bin and last four), else ErrCardMismatch. ok
// is false when the campaign's charges are not retried (nothing is saved).
func (p *Processors) SaveRetryCard(ctx context.Context, scope tenants.Scope, campaignID uuid.UUID, currency string,
	payer gateway.Customer, vaultToken, bin, lastFour string) (_ RetryCard, ok bool, _ error) {
	r, err := p.CampaignRoute(ctx, scope, campaignID, currency)
	if err != nil || r.Retry == nil {
		return RetryCard{}, false, err
	}
	a := r.Retry.Gateway.(*dlocal.Account) // processor builds only these
	cust, err := a.EnsureCustomer(ctx, payer)
	if err != nil {
		return RetryCard{}, false, err
	}
	c, err := a.SaveCard(ctx, cust.ID, vaultToken)
	if err != nil {
		return RetryCard{}, false, fmt.Errorf("save the retry card: %w", err)
	}
	if c.LastFour != lastFour || len(bin) < 6 || c.FirstSix != bin[:6] {
		return RetryCard{}, false, ErrCardMismatch
	}
	return RetryCard{ProcessorID: r.Retry.ID, CardID: c.ID, CustomerID: cust.ID}, true, nil
}

// CampaignRoute is the route of the campaign's donations: the first processor (in the organisation's
// order) whose rule names the campaign, and the global processor with the retry rule. Only a
// processor in the organisation's own currency charges: another currency stays with the connected
// gateway.
func (p *Processors) CampaignRoute(ctx context.Context, scope tenants.Scope, campaignID uuid.UUID, currency string) (charge.Route, error) {
	rows, err := processorRoutes(ctx, scope, campaignID)
	if err != nil || len(rows) == 0 {
		return charge.Route{}, err
	}
	local, err := scope.Store().Countries(ctx, []string{scope.Country})
	if err != nil {
		return charge.Route{}, err
	}
	if len(local) != 1 || local[0].Currency != currency {
		return charge.Route{}, nil
	}
	var route charge.Route
	for _, r := range rows {
		if r.Routes && route.Processor == nil {
			if route.Processor, err = p.processor(ctx, scope, r, currency); err != nil {
				return charge.Route{}, err
			}
		}
		if r.Family == Global && r.RuleRetry && route.Retry == nil {
			if route.Retry, err = p.processor(ctx, scope, r, currency); err != nil {
				return charge.Route{}, err
			}
		}
	}
	if route.Processor != nil {
		route.Retry = nil // a processor's declines are final: retry is for the connected gateway's
	}
	return route, nil
}

// Account is the processor account a campaign's donations are charged through: the form tokenises
// cards with its public key, and charge.Charge charges through its processor (descriptor, fee).
type Account struct {
	*dlocal.Account
	PublicKey string
	processor *charge.Processor
}

// ChargeProcessor is the processor charges through this account are made by (charge.Routed).
func (a *Account) ChargeProcessor() *charge.Processor { return a.processor }

// CampaignAccount is the account of the processor a rule routes the campaign's donations to; nil
// when they go to the connected gateway.
func (p *Processors) CampaignAccount(ctx context.Context, scope tenants.Scope, campaignID uuid.UUID, currency string) (*Account, error) {
	r, err := p.CampaignRoute(ctx, scope, campaignID, currency)
	if err != nil || r.Processor == nil {
		return nil, err
	}
	a := r.Processor.Gateway.(*dlocal.Account) // processor builds only these
	return &Account{Account: a, PublicKey: a.PublicKey(), processor: r.Processor}, nil
}

// Merchant is the merchant account of the organisation's processor id in currency: what its charges
// were paid into, and what payouts are paid from. dberr.ErrNotFound when the processor has none.
func (p *Processors) Merchant(ctx context.Context, scope tenants.Scope, id uuid.UUID, currency string) (*dlocal.Account, error) {
	r, err := scope.Store().ProcessorMerchant(ctx, sharddb.ProcessorMerchantParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return nil, err
	}
	return p.account(ctx, scope, sharddb.ProcessorRoutesRow{ID: r.ID, MerchantLogin: r.MerchantLogin, PublicKey: r.PublicKey,
		Secret: r.Secret, KeyID: r.KeyID}, currency)
}

type routesOf struct{ org, campaign uuid.UUID }

type campaignOf struct{ org, donation uuid.UUID }

// KnowCampaign tells Route, within the request ctx (requestonce), the campaign of a donation the request
// has just written, so routing its charge does not read it back.
func KnowCampaign(ctx context.Context, orgID, donationID, campaignID uuid.UUID) {
	requestonce.Keep(ctx, campaignOf{orgID, donationID}, campaignID)
}

// processorRoutes reads the campaign's processor routes, once per request (requestonce).
func processorRoutes(ctx context.Context, scope tenants.Scope, campaignID uuid.UUID) ([]sharddb.ProcessorRoutesRow, error) {
	return requestonce.Read(ctx, routesOf{scope.OrgID, campaignID}, func() ([]sharddb.ProcessorRoutesRow, error) {
		return scope.Store().ProcessorRoutes(ctx, sharddb.ProcessorRoutesParams{OrganizationID: scope.OrgID, CampaignID: campaignID})
	})
}
