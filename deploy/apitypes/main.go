// Command apitypes writes web/src/api/types.gen.ts: TypeScript interfaces for the JSON of the Go
// request and response structs the web app reads, so the two cannot drift apart silently. Run it from
// the repository root after changing one of those structs:
//
//	go run ./deploy/apitypes
//
// Its test fails while the committed file differs from what it would write.
package main

import (
	"fmt"
	"os"
	"reflect"

	"github.com/aporta/aporta/api/account"
	"github.com/aporta/aporta/api/agency"
	"github.com/aporta/aporta/api/bankaccounts"
	"github.com/aporta/aporta/api/dashboard"
	"github.com/aporta/aporta/api/donation"
	"github.com/aporta/aporta/api/gateways"
	"github.com/aporta/aporta/api/integration"
	"github.com/aporta/aporta/api/payouts"
	"github.com/aporta/aporta/api/processors"
	"github.com/aporta/aporta/api/rates"
	"github.com/aporta/aporta/api/staff"
	"github.com/aporta/aporta/api/subscription"
	"github.com/aporta/aporta/api/user"
	"github.com/aporta/aporta/api/webhook"
	bankstore "github.com/aporta/aporta/internal/bankaccounts"
	"github.com/aporta/aporta/internal/descriptor"
	"github.com/aporta/aporta/internal/reference"
)

// Output is the generated file, relative to the repository root.
const Output = "web/src/api/types.gen.ts"

// roots are the structs the web reads or sends, each under the name the web uses. The structs
// they refer to are written too, under their Go names (prefixed by their package on a clash).
var roots = []root{
	{"CurrentUser", reflect.TypeFor[account.CurrentUser]()},
	{"SignupPayload", reflect.TypeFor[account.RegisterRequest]()},
	{"CountryData", reflect.TypeFor[reference.Country]()},
	{"Subscription", reflect.TypeFor[subscription.View]()},
	{"SubscriptionPage", reflect.TypeFor[subscription.Answer]()},
	{"PaymentAuthorization", reflect.TypeFor[subscription.Authorization]()},
	{"OrgUser", reflect.TypeFor[user.User]()},
	{"ReceivedInvitation", reflect.TypeFor[user.InvitationView]()},
	{"DonationListItem", reflect.TypeFor[donation.ListItem]()},
	{"DonationDetail", reflect.TypeFor[donation.Detail]()},
	{"DonationRecord", reflect.TypeFor[donation.DonationDetail]()},
	{"Version", reflect.TypeFor[donation.VersionView]()},
	{"CurrencySummary", reflect.TypeFor[donation.CurrencySummary]()},
	{"TxRow", reflect.TypeFor[donation.TransactionRow]()},
	{"Dashboard", reflect.TypeFor[dashboard.Dashboard]()},
	{"WaitingOrganization", reflect.TypeFor[staff.Waiting]()},
	{"AuditEntry", reflect.TypeFor[staff.AuditEntry]()},
	{"PaymentGateways", reflect.TypeFor[gateways.List]()},
	{"GatewayConnection", reflect.TypeFor[gateways.Connection]()},
	{"BankAccount", reflect.TypeFor[bankaccounts.Account]()},
	{"BankAccounts", reflect.TypeFor[bankaccounts.List]()},
	{"BankAccountForm", reflect.TypeFor[bankstore.Form]()},
	{"BankParams", reflect.TypeFor[reference.BankParams]()},
	{"PaymentProcessors", reflect.TypeFor[processors.Listing]()},
	{"PaymentProcessor", reflect.TypeFor[processors.Processor]()},
	{"PaymentProcessorForm", reflect.TypeFor[processors.Form]()},
	{"GatewayOption", reflect.TypeFor[processors.Option]()},
	{"DescriptorRule", reflect.TypeFor[descriptor.Rule]()},
	{"ProcessorRules", reflect.TypeFor[processors.Rules]()},
	{"ProcessorRulesForm", reflect.TypeFor[processors.RulesForm]()},
	{"RuleCampaign", reflect.TypeFor[processors.Campaign]()},
	{"PayoutPage", reflect.TypeFor[payouts.Page]()},
	{"PayoutDetail", reflect.TypeFor[payouts.Detail]()},
	{"CrmSetup", reflect.TypeFor[integration.Setup]()},
	{"CrmIntegrationList", reflect.TypeFor[integration.List]()},
	{"CrmRequests", reflect.TypeFor[integration.Requests]()},
	{"WebhookList", reflect.TypeFor[webhook.List]()},
	{"WebhookWithSecret", reflect.TypeFor[webhook.WithSecret]()},
	{"WebhookDeliveries", reflect.TypeFor[webhook.Deliveries]()},
	{"AgencyList", reflect.TypeFor[agency.List]()},
	{"AgencyDetail", reflect.TypeFor[agency.One]()},
	{"AgencyUser", reflect.TypeFor[agency.User]()},
	{"AgencyCampaigns", reflect.TypeFor[agency.Authorisables]()},
	{"AgencyMe", reflect.TypeFor[agency.Me]()},
	{"AgencyAcquisitions", reflect.TypeFor[agency.Acquisitions]()},
	{"AgencyAcquisitionReply", reflect.TypeFor[agency.AcquisitionReply]()},
	{"AgencyAcquireRequest", reflect.TypeFor[agency.AcquireRequest]()},
	{"MepNote", reflect.TypeFor[rates.Note]()},
	{"MepHistory", reflect.TypeFor[rates.History]()},
}

func main() {
	src, err := Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "apitypes:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(Output, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "apitypes:", err)
		os.Exit(1)
	}
}

// Generate returns the TypeScript source for roots.
func Generate() ([]byte, error) { return generate(roots) }
