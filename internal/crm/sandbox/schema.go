package sandbox

import "github.com/aporta/aporta/internal/crm"

// ExternalIDField is the external id field every object of the sandbox has (a custom field an
// organisation adds to its Salesforce org for Aporta's ids).
const ExternalIDField = "Aporta_Id__c"

func text(name, label string, length int) crm.Field {
	return crm.Field{Name: name, Label: label, Type: "string", Length: length, Nillable: true, Createable: true, Updateable: true}
}

func typed(name, label, typ string) crm.Field {
	f := text(name, label, 0)
	f.Type = typ
	if typ == "textarea" {
		f.Length = 32000
	}
	if typ == "email" || typ == "phone" {
		f.Length = 80
	}
	return f
}

func picklist(name, label string, values ...string) crm.Field {
	f := typed(name, label, "picklist")
	for _, v := range values {
		f.PicklistValues = append(f.PicklistValues, crm.PicklistValue{Value: v, Label: v, Active: true})
	}
	return f
}

func required(f crm.Field) crm.Field {
	f.Nillable = false
	return f
}

func reference(name, label, to, relationship string) crm.Field {
	f := typed(name, label, "reference")
	f.Length = 18
	f.ReferenceTo, f.RelationshipName = []string{to}, relationship
	return f
}

func common(fields ...crm.Field) []crm.Field {
	id := crm.Field{Name: "Id", Label: "Record ID", Type: "id", Length: 18, DefaultedOnCreate: true}
	ext := text(ExternalIDField, "Aporta Id", 64)
	ext.ExternalID = true
	return append([]crm.Field{id, ext}, fields...)
}

// schema is the objects the sandbox knows: the fields a Nonprofit Success Pack org has that an
// organisation would map to, with Salesforce's types, required fields and picklists.
var schema = map[string]crm.Describe{
	"Contact": {Name: "Contact", Label: "Contact", Fields: common(
		text("FirstName", "First Name", 40), required(text("LastName", "Last Name", 80)),
		typed("Email", "Email", "email"), typed("Phone", "Business Phone", "phone"), typed("MobilePhone", "Mobile Phone", "phone"),
		typed("MailingStreet", "Mailing Street", "textarea"), text("MailingCity", "Mailing City", 40),
		text("MailingState", "Mailing State/Province", 80), text("MailingCountry", "Mailing Country", 80),
		text("npe01__WorkEmail__c", "Work Email", 80), typed("Description", "Contact Description", "textarea"),
		typed("Birthdate", "Birthdate", "date"), typed("HasOptedOutOfEmail", "Email Opt Out", "boolean"),
	)},
	"Campaign": {Name: "Campaign", Label: "Campaign", Fields: common(
		required(text("Name", "Campaign Name", 80)),
		picklist("Type", "Type", "Conference", "Webinar", "Email", "Direct Mail", "Advertisement", "Other"),
		picklist("Status", "Status", "Planned", "In Progress", "Completed", "Aborted"),
		typed("IsActive", "Active", "boolean"), typed("StartDate", "Start Date", "date"), typed("EndDate", "End Date", "date"),
		typed("Description", "Description", "textarea"), typed("ExpectedRevenue", "Expected Revenue in Campaign", "currency"),
	)},
	"Opportunity": {Name: "Opportunity", Label: "Opportunity", Fields: common(
		required(text("Name", "Name", 120)), typed("Amount", "Amount", "currency"),
		required(picklist("StageName", "Stage", "Prospecting", "Pledged", "Posted", "Closed Won", "Closed Lost")),
		required(typed("CloseDate", "Close Date", "date")), typed("Description", "Description", "textarea"),
		reference("ContactId", "Contact ID", "Contact", "Contact"), reference("CampaignId", "Campaign ID", "Campaign", "Campaign"),
		reference("npe03__Recurring_Donation__c", "Recurring Donation", "npe03__Recurring_Donation__c", "npe03__Recurring_Donation__r"),
		text("CurrencyIsoCode", "Opportunity Currency", 3),
	)},
	"npe03__Recurring_Donation__c": {Name: "npe03__Recurring_Donation__c", Label: "Recurring Donation", Fields: common(
		text("Name", "Recurring Donation Name", 80), typed("npe03__Amount__c", "Amount", "currency"),
		reference("npe03__Contact__c", "Contact", "Contact", "npe03__Contact__r"),
		reference("npe03__Recurring_Donation_Campaign__c", "Campaign", "Campaign", "npe03__Recurring_Donation_Campaign__r"),
		typed("npe03__Date_Established__c", "Date Established", "date"),
		picklist("npe03__Installment_Period__c", "Installment Period", "Monthly", "Quarterly", "Yearly", "Weekly"),
		picklist("npsp__Status__c", "Status", "Active", "Lapsed", "Paused", "Closed"),
		picklist("npsp__ClosedReason__c", "Closed Reason", "Commitment Completed", "Financial Difficulty", "Unknown"),
		picklist("npsp__RecurringType__c", "Recurring Type", "Open", "Fixed"),
		typed("npsp__Day_of_Month__c", "Day of Month", "string"), typed("npe03__Total_Paid_Installments__c", "Number Of Paid Installments", "double"),
		typed("npe03__Paid_Amount__c", "Total Paid Amount", "currency"), typed("npe03__Last_Payment_Date__c", "Last Donation Date", "date"),
		text("CurrencyIsoCode", "Currency", 3),
	)},
}
