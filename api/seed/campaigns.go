package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

const demoCurrency = "ARS"

// The demo campaigns, by index in demoCampaigns.
const (
	campaignMain = iota
	campaignStreet
	campaignPhone
	campaignEmergency
	campaignDinner
)

type ticketOption struct {
	name  string
	price int64 // minor units
	most  int   // most bought at once
}

// demoCampaign is one campaign of the demo organisation: monthly giving on the public form, with
// street fundraisers (f2f) and by phone (agents), a one-time emergency appeal, and a dinner with tickets.
type demoCampaign struct {
	id                        uuid.UUID
	slug, title, typ, channel string
	description, objective    string
	presets                   []int64 // minor units
	oneTime                   bool    // its donations are one-time gifts
	upgrade                   bool    // offers the periodic increase
	tickets                   []ticketOption
	age                       time.Duration // how long before the anchor it was created
}

var demoCampaigns = []demoCampaign{
	campaignMain: {id: DemoCampaignID, slug: "dona-demo", title: "Doná a Fundación Demo", typ: "fundraise", channel: "public",
		description: "Con tu aporte mensual sostenemos comedores, apoyo escolar y talleres en barrios de todo el país.",
		presets:     []int64{3_000_00, 5_000_00, 10_000_00, 20_000_00}, upgrade: true, age: 400 * 24 * time.Hour},
	campaignStreet: {id: campaignID(2), slug: "socios-en-la-calle", title: "Socios en la calle", typ: "fundraise", channel: "f2f",
		description: "Nuestros promotores te cuentan en la calle lo que hacemos; sumate como socio mensual.",
		presets:     []int64{4_000_00, 8_000_00, 15_000_00}, age: 380 * 24 * time.Hour},
	campaignPhone: {id: campaignID(3), slug: "socios-por-telefono", title: "Socios por teléfono", typ: "fundraise", channel: "agents",
		description: "Campaña de nuestro equipo de llamadas: socios mensuales que se suman por teléfono.",
		presets:     []int64{5_000_00, 10_000_00}, age: 370 * 24 * time.Hour},
	campaignEmergency: {id: campaignID(4), slug: "emergencia-inundaciones", title: "Emergencia por inundaciones", typ: "crowdfund",
		channel: "public", objective: "Reunir $ 30.000.000 para agua, alimentos y abrigo",
		description: "Las familias afectadas por las inundaciones necesitan ayuda ahora. Tu donación única llega en días.",
		presets:     []int64{5_000_00, 10_000_00, 25_000_00, 50_000_00}, oneTime: true, age: 390 * 24 * time.Hour},
	campaignDinner: {id: campaignID(5), slug: "cena-anual", title: "Cena anual a beneficio", typ: "tickets", channel: "public",
		description: "Una noche para celebrar el año y recaudar fondos para los talleres. Comprá tu entrada o tu mesa.",
		oneTime:     true, age: 100 * 24 * time.Hour,
		tickets: []ticketOption{{"Entrada general", 35_000_00, 4}, {"Mesa para diez", 300_000_00, 1}}},
}

func campaignID(n int) uuid.UUID {
	return uuid.MustParse(fmt.Sprintf("0a1b2c3d-0000-4000-8000-00000000c%03d", n))
}

// ensureCampaigns creates the demo campaigns with their settings (preset amounts, frequencies,
// periodic increase, tickets) through the campaign service, published, and dates them.
func ensureCampaigns(ctx context.Context, svc *campaign.Service, scope tenants.Scope, anchor time.Time) error {
	for _, c := range demoCampaigns {
		err := svc.Create(ctx, scope.OrgID, campaign.New{ID: c.id, Slug: c.slug, Title: c.title, Description: c.description,
			Type: c.typ, Channel: c.channel, Published: true})
		if err != nil {
			return fmt.Errorf("campaign %s: %w", c.slug, err)
		}
		_, err = svc.Update(ctx, scope.OrgID, c.id, func(in *campaign.Input) error {
			in.Title, in.Description, in.Objective, in.Channel = c.title, c.description, c.objective, c.channel
			in.Amounts = nil
			for _, p := range c.presets {
				in.Amounts = append(in.Amounts, campaign.Amount{Amount: money.New(p, demoCurrency).Decimal()})
			}
			in.AllowOtherAmount = c.tickets == nil
			in.AllowOneTime = c.oneTime || c.id == DemoCampaignID
			if c.upgrade {
				pct, months := 10.0, 6
				in.PeriodicIncrease = campaign.PeriodicIncrease{Enabled: true, Percentage: &pct, PeriodMonths: &months}
			}
			in.Thanks = campaign.Thanks{Instant: "¡Gracias, {nombre}! Tu aporte de {monto} ya está trabajando.",
				EmailSubject: "Gracias por sumarte a {campaña}",
				Email:        "Hola {nombre}:\n\nRecibimos tu aporte de {monto}. ¡Gracias por ser parte!\n\nFundación Demo"}
			if c.tickets != nil {
				starts := anchor.Add(40 * 24 * time.Hour).Truncate(24 * time.Hour).Add(23 * time.Hour)
				ends, salesEnd := starts.Add(4*time.Hour), starts.Add(-24*time.Hour)
				ev := &campaign.Event{Category: "Gala", Format: "physical", StartsAt: &starts, EndsAt: &ends, TicketSalesEnd: &salesEnd}
				for _, t := range c.tickets {
					q := 400
					if t.most == 1 {
						q = 30
					}
					ev.Tickets = append(ev.Tickets, campaign.Ticket{Name: t.name, Quantity: &q})
					in.Amounts = append(in.Amounts, campaign.Amount{Amount: money.New(t.price, demoCurrency).Decimal(), Label: t.name})
				}
				in.Event = ev
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("campaign %s settings: %w", c.slug, err)
		}
		if err := scope.Store().SeedBackdateCampaign(ctx, sharddb.SeedBackdateCampaignParams{At: anchor.Add(-c.age),
			OrganizationID: scope.OrgID, ID: c.id}); err != nil {
			return err
		}
	}
	return nil
}
