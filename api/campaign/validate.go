package campaign

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/money"
)

// checked is an Input turned into what the store writes.
type checked struct {
	Input
	amounts  []storedAmount
	minOther *int64
}

// validate checks every field of in for a campaign in currency. It returns an *apierror.Error
// whose Fields name each wrong field (JSON paths such as "amounts.1.amount").
func validate(in Input, currency string) (checked, error) {
	out := checked{Input: in}
	fields := map[string]string{}
	in.Title = strings.TrimSpace(in.Title)
	out.Title = in.Title
	switch {
	case in.Title == "":
		fields["title"] = "campaign.required"
	case utf8.RuneCountInString(in.Title) > 120:
		fields["title"] = "campaign.too_long"
	}
	if utf8.RuneCountInString(in.Description) > 5000 {
		fields["description"] = "campaign.too_long"
	}
	if !slices.Contains(Types, in.Type) {
		fields["type"] = "campaign.invalid_option"
	}
	if !slices.Contains(Channels, in.Channel) {
		fields["channel"] = "campaign.invalid_option"
	}
	if len(in.Amounts) > 12 {
		fields["amounts"] = "campaign.too_many"
	}
	for i, a := range in.Amounts {
		m, err := money.Parse(strings.TrimSpace(a.Amount), currency)
		if err != nil || m.Minor <= 0 {
			fields[fmt.Sprintf("amounts.%d.amount", i)] = "campaign.amount_invalid"
			continue
		}
		if utf8.RuneCountInString(a.Label) > 60 {
			fields[fmt.Sprintf("amounts.%d.label", i)] = "campaign.too_long"
		}
		out.amounts = append(out.amounts, storedAmount{Minor: m.Minor, Label: strings.TrimSpace(a.Label)})
	}
	if in.MinOtherAmount != nil && strings.TrimSpace(*in.MinOtherAmount) != "" {
		m, err := money.Parse(strings.TrimSpace(*in.MinOtherAmount), currency)
		if err != nil || m.Minor <= 0 {
			fields["min_other_amount"] = "campaign.amount_invalid"
		} else {
			out.minOther = &m.Minor
		}
	}
	if !slices.Contains(Instalments, in.Instalments) {
		fields["instalments"] = "campaign.invalid_option"
	}
	if in.FormColor != "" && !hexColor.MatchString(in.FormColor) {
		fields["form_color"] = "campaign.color_invalid"
	}
	var percentErr *apierror.Error
	if p := in.PeriodicIncrease; p.Enabled {
		lo, hi := p.Bounds()
		if lo <= 0 || hi < lo || hi > 1000 {
			fields["periodic_increase.max_percentage"] = "campaign.invalid_option"
		}
		if p.PeriodMonths == nil || !slices.Contains(UpgradePeriods, *p.PeriodMonths) {
			fields["periodic_increase.period_months"] = "campaign.invalid_option"
		}
		if p.Percentage == nil || *p.Percentage < lo || *p.Percentage > hi {
			fields["periodic_increase.percentage"] = "campaign.percentage_range_field"
			percentErr = apierror.New(http.StatusUnprocessableEntity, "campaign.percentage_range", trimFloat(lo), trimFloat(hi))
		}
	}
	for name, v := range map[string]string{"analytics.pixel_id": in.Analytics.PixelID, "analytics.analytics_id": in.Analytics.AnalyticsID,
		"analytics.tag_manager_id": in.Analytics.TagManagerID, "thanks.email_subject": in.Thanks.EmailSubject} {
		if utf8.RuneCountInString(v) > 200 {
			fields[name] = "campaign.too_long"
		}
	}
	for name, v := range map[string]string{"thanks.instant": in.Thanks.Instant, "thanks.email": in.Thanks.Email} {
		if utf8.RuneCountInString(v) > 5000 {
			fields[name] = "campaign.too_long"
		}
	}
	if in.Event != nil {
		e := in.Event
		if in.Type != "tickets" {
			fields["event"] = "campaign.event_only_tickets"
		}
		if e.Format != "" && !slices.Contains(EventFormats, e.Format) {
			fields["event.format"] = "campaign.invalid_option"
		}
		if e.StartsAt != nil && e.EndsAt != nil && e.EndsAt.Before(*e.StartsAt) {
			fields["event.ends_at"] = "campaign.dates_order"
		}
		for i, t := range e.Tickets {
			if strings.TrimSpace(t.Name) == "" {
				fields[fmt.Sprintf("event.tickets.%d.name", i)] = "campaign.required"
			}
			if t.Quantity != nil && *t.Quantity <= 0 {
				fields[fmt.Sprintf("event.tickets.%d.quantity", i)] = "campaign.invalid_option"
			}
		}
	}
	for i, f := range checkFields(in.FormFields) {
		fields[i] = f
	}
	if len(fields) > 0 {
		if len(fields) == 1 && fields["form_color"] != "" {
			return out, &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "campaign.color_invalid", Fields: fields}
		}
		if percentErr != nil {
			percentErr.Fields = fields
			return out, percentErr
		}
		return out, apierror.Validation(fields)
	}
	return out, nil
}

func checkFields(ff []FormField) map[string]string {
	fields := map[string]string{}
	if len(ff) > 50 {
		fields["form_fields"] = "campaign.too_many"
	}
	for i, f := range ff {
		p := fmt.Sprintf("form_fields.%d.", i)
		if !slices.Contains(FieldTypes, f.Type) {
			fields[p+"type"] = "campaign.invalid_option"
		}
		if f.Width != "" && !slices.Contains(FieldWidths, f.Width) {
			fields[p+"width"] = "campaign.invalid_option"
		}
		if !slices.Contains(RelatedDonorFields, f.ValueRelatedTo) {
			fields[p+"value_related_to"] = "campaign.invalid_option"
		}
		if utf8.RuneCountInString(f.Title) > 120 || utf8.RuneCountInString(f.Label) > 120 {
			fields[p+"label"] = "campaign.too_long"
		}
		if f.Type == "select_options" && len(f.Options) == 0 {
			fields[p+"options"] = "campaign.required"
		}
	}
	return fields
}

func normalizeFields(ff []FormField) []FormField {
	out := make([]FormField, len(ff))
	for i, f := range ff {
		if f.Width == "" {
			f.Width = "full"
		}
		f.Order = 0
		out[i] = f
	}
	return out
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.2f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// missingForPublish lists the required information a campaign lacks before it can be published.
func missingForPublish(c *Campaign) map[string]string {
	fields := map[string]string{}
	if strings.TrimSpace(c.Title) == "" {
		fields["title"] = "campaign.required"
	}
	if len(c.amounts) == 0 {
		fields["amounts"] = "campaign.publish_needs_amounts"
	}
	if c.Type == "tickets" {
		if c.Event == nil || c.Event.StartsAt == nil {
			fields["event.starts_at"] = "campaign.required"
		}
		if c.Event == nil || len(c.Event.Tickets) == 0 {
			fields["event.tickets"] = "campaign.required"
		}
	}
	return fields
}
