package crmlink

import (
	"encoding/json"

	"github.com/aporta/aporta/internal/sharddb"
	"slices"
	"strings"

	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/i18n"
)

// Attribute types, each written into the CRM field types it fits (fits).
const (
	TypeText    = "text"
	TypeEmail   = "email"
	TypePhone   = "phone"
	TypeNumber  = "number"
	TypeDate    = "date"
	TypeBoolean = "boolean"
	TypeEnum    = "enum" // a closed list of values (Values), what value mappings translate
)

// Attribute is one of our values an organisation may map to a CRM field.
type Attribute struct {
	Class  string   `json:"class_name"`
	Name   string   `json:"attribute"`
	Type   string   `json:"type"`
	Values []string `json:"values,omitempty"`
}

// FormPrefix names a donation's additional attribute: the answer to the campaign form's field
// with that title ("form:Profesión").
const FormPrefix = "form:"

var donationStatuses = []string{"pending", "active", "paused", "discarded", "rejected"}
var chargeStatuses = []string{"approved", "cancelled", "charged_back", "in_mediation", "in_process", "pending", "refunded", "rejected"}

// Attributes are the attributes of each class, in the order the setup lists them.
var Attributes = []Attribute{
	{Donor, "email", TypeEmail, nil}, {Donor, "first_name", TypeText, nil}, {Donor, "last_name", TypeText, nil},
	{Donor, "full_name", TypeText, nil}, {Donor, "phone", TypePhone, nil}, {Donor, "cellphone", TypePhone, nil},
	{Donor, "uid_type", TypeText, nil}, {Donor, "uid_number", TypeText, nil}, {Donor, "street", TypeText, nil},
	{Donor, "city", TypeText, nil}, {Donor, "state", TypeText, nil}, {Donor, "country", TypeText, nil},
	{Donor, "created_at", TypeDate, nil},
	{Donation, "amount", TypeNumber, nil}, {Donation, "currency", TypeText, nil},
	{Donation, "status", TypeEnum, donationStatuses}, {Donation, "recurrence", TypeEnum, []string{"monthly", "one_time"}},
	{Donation, "collect_day", TypeText, nil}, {Donation, "created_at", TypeDate, nil}, {Donation, "campaign_title", TypeText, nil},
	{Donation, "charges_approved", TypeNumber, nil}, {Donation, "total_collected", TypeNumber, nil},
	{Donation, "last_charge_status", TypeEnum, chargeStatuses}, {Donation, "last_charge_date", TypeDate, nil},
	{Donation, "paused_reason", TypeText, nil}, {Donation, "title", TypeText, nil},
	{Campaign, "title", TypeText, nil}, {Campaign, "description", TypeText, nil},
	{Campaign, "type", TypeEnum, []string{"crowdfund", "custom", "fundraise", "promoted", "tickets"}},
	{Campaign, "channel", TypeEnum, []string{"agents", "f2f", "private", "public"}},
	{Campaign, "published", TypeBoolean, nil}, {Campaign, "created_at", TypeDate, nil},
}

// FindAttribute returns a class's attribute by name; a donation's form answers are text.
func FindAttribute(class, name string) (Attribute, bool) {
	for _, a := range Attributes {
		if a.Class == class && a.Name == name {
			return a, true
		}
	}
	if title, ok := strings.CutPrefix(name, FormPrefix); ok && class == Donation && strings.TrimSpace(title) != "" && len(title) <= 200 {
		return Attribute{Class: Donation, Name: name, Type: TypeText}, true
	}
	return Attribute{}, false
}

// Objects lists the CRM objects each class may be written to: a donor is a contact, a campaign a
// campaign, a donation a recurring donation and/or an opportunity.
var Objects = map[string][]string{
	Donor:    {crm.ObjectContact},
	Campaign: {crm.ObjectCampaign},
	Donation: {crm.ObjectRecurringDonation, crm.ObjectOpportunity},
}

// fits lists the CRM field types an attribute type may be written to.
var fits = map[string][]string{
	TypeText:    {"string", "textarea"},
	TypeEmail:   {"email", "string", "textarea"},
	TypePhone:   {"phone", "string"},
	TypeNumber:  {"currency", "double", "int", "percent", "string"},
	TypeDate:    {"date", "datetime", "string"},
	TypeBoolean: {"boolean", "string"},
	TypeEnum:    {"picklist", "string", "textarea"},
}

// Rule is a mapping as the setup writes it.
type Rule struct {
	Class     string            `json:"class_name"`
	Attribute string            `json:"attribute"`
	Object    string            `json:"crm_object"`
	Field     string            `json:"field"`
	SyncRule  string            `json:"sync_rule"`
	ValueMap  map[string]string `json:"value_map"`
	// FieldType is the CRM field's type, from its describe (not stored: Check and the sync set it).
	FieldType string `json:"-"`
}

// Sync rules.
const (
	AlwaysOverride  = "always_override"
	OverrideIfEmpty = "override_if_empty"
)

// RuleError is a mapping the CRM would refuse: Code is an i18n code, Field the rule's member at fault.
type RuleError struct {
	Field  string
	Code   string
	Params []any
}

func (e *RuleError) Error() string { return e.Code }

// Check validates r against the CRM's describe of its object (describe is nil when the CRM's
// objects are not known). It returns the field as the CRM spells it.
func (r *Rule) Check(describe *crm.Describe, externalIDField string) error {
	a, ok := FindAttribute(r.Class, r.Attribute)
	if !ok {
		return &RuleError{Field: "attribute", Code: "crm.unknown_attribute", Params: []any{r.Attribute}}
	}
	if !slices.Contains(Objects[r.Class], r.Object) {
		return &RuleError{Field: "crm_object", Code: "crm.object_not_allowed"}
	}
	if r.SyncRule != AlwaysOverride && r.SyncRule != OverrideIfEmpty {
		return &RuleError{Field: "sync_rule", Code: "crm.sync_rule_invalid"}
	}
	if len(r.ValueMap) > 100 {
		return &RuleError{Field: "value_map", Code: "crm.value_map_invalid"}
	}
	for k, v := range r.ValueMap {
		if (a.Type == TypeEnum && !slices.Contains(a.Values, k)) || len(k) > 200 || len(v) > 255 || strings.TrimSpace(v) == "" {
			return &RuleError{Field: "value_map", Code: "crm.value_map_invalid"}
		}
	}
	if describe == nil {
		return &RuleError{Field: "crm_object", Code: "crm.unreachable"}
	}
	f, ok := describe.Field(r.Field)
	if !ok {
		return &RuleError{Field: "field", Code: "crm.unknown_field", Params: []any{r.Field, describe.Name}}
	}
	r.Field, r.FieldType = f.Name, f.Type
	if !f.Createable || !f.Updateable || f.Name == "Id" || strings.EqualFold(f.Name, externalIDField) || f.Type == "reference" {
		return &RuleError{Field: "field", Code: "crm.field_not_writable", Params: []any{f.Name}}
	}
	if !slices.Contains(fits[a.Type], f.Type) {
		return &RuleError{Field: "field", Code: "crm.field_type_mismatch", Params: []any{f.Name, f.Type}}
	}
	if f.Type == "picklist" {
		var missing []string
		for _, v := range a.Values {
			if !picklistHas(f, r.mapped(v)) {
				missing = append(missing, v)
			}
		}
		if len(missing) > 0 {
			return &RuleError{Field: "value_map", Code: "crm.value_not_in_picklist", Params: []any{strings.Join(missing, ", "), f.Name}}
		}
	}
	return nil
}

func (r *Rule) mapped(v string) string {
	if m, ok := r.ValueMap[v]; ok {
		return m
	}
	return v
}

func picklistHas(f crm.Field, v string) bool {
	return slices.ContainsFunc(f.PicklistValues, func(p crm.PicklistValue) bool { return p.Active && p.Value == v })
}

func init() {
	i18n.Register(i18n.Catalog{
		"crm.unknown_attribute": {
			i18n.ES: "No conocemos el atributo %q.", i18n.EN: "We do not know the attribute %q.", i18n.PT: "Não conhecemos o atributo %q.",
		},
		"crm.object_not_allowed": {
			i18n.ES: "Ese atributo no se puede enviar a ese objeto del CRM.", i18n.EN: "That attribute cannot be sent to that CRM object.",
			i18n.PT: "Esse atributo não pode ser enviado a esse objeto do CRM.",
		},
		"crm.sync_rule_invalid": {
			i18n.ES: "Elige siempre sobrescribir o sobrescribir si está vacío.", i18n.EN: "Choose always override or override if empty.",
			i18n.PT: "Escolha sempre sobrescrever ou sobrescrever se estiver vazio.",
		},
		"crm.value_map_invalid": {
			i18n.ES: "La traducción de valores tiene valores que este atributo no toma o están vacíos.",
			i18n.EN: "The value mapping has values this attribute does not take, or empty ones.",
			i18n.PT: "O mapeamento de valores tem valores que este atributo não assume, ou vazios.",
		},
		"crm.unknown_field": {
			i18n.ES: "El CRM no tiene el campo %q en %s.", i18n.EN: "The CRM has no field %q on %s.", i18n.PT: "O CRM não tem o campo %q em %s.",
		},
		"crm.field_not_writable": {
			i18n.ES: "El CRM no permite escribir el campo %s.", i18n.EN: "The CRM does not let us write the field %s.",
			i18n.PT: "O CRM não permite escrever o campo %s.",
		},
		"crm.field_type_mismatch": {
			i18n.ES: "El campo %s es de tipo %s en el CRM: no admite este atributo.", i18n.EN: "The field %s is of type %s in the CRM: it does not take this attribute.",
			i18n.PT: "O campo %s é do tipo %s no CRM: não aceita este atributo.",
		},
		"crm.value_not_in_picklist": {
			i18n.ES: "Traduce estos valores a opciones de la lista %[2]s: %[1]s.", i18n.EN: "Map these values to options of the picklist %[2]s: %[1]s.",
			i18n.PT: "Mapeie estes valores para opções da lista %[2]s: %[1]s.",
		},
		"crm.unreachable": {
			i18n.ES: "No pudimos comunicarnos con el CRM. Prueba de nuevo en unos minutos.", i18n.EN: "We could not reach the CRM. Please try again in a few minutes.",
			i18n.PT: "Não conseguimos falar com o CRM. Tente de novo em alguns minutos.",
		},
	})
}

// FromRow is a stored rule.
func FromRow(r sharddb.CrmRule) Rule {
	out := Rule{Class: r.ClassName, Attribute: r.Attribute, Object: r.CrmObject, Field: r.Field, SyncRule: r.SyncRule}
	_ = json.Unmarshal(r.ValueMap, &out.ValueMap) // written by us from a map
	return out
}
