// Package crm speaks Salesforce's REST API (OAuth 2.0 client credentials, sObject describe, upsert
// by external id through sObject Collections, SOQL query, the Sforce-Limit-Info budget header) for
// organisations that sync their donors, campaigns and donations to their CRM (issue #16). The wire
// types are shared with the sandbox CRM (internal/crm/sandbox), so both sides speak the same shapes.
package crm

import (
	"fmt"
	"strconv"
	"strings"
)

// APIVersion is the REST API version every call names.
const APIVersion = "v60.0"

// The sObjects an organisation maps to: our names (CRM mapping §3) and Salesforce's API names
// (Nonprofit Success Pack for the recurring donation).
const (
	ObjectContact           = "contact"
	ObjectCampaign          = "campaign"
	ObjectOpportunity       = "opportunity"
	ObjectRecurringDonation = "recurring_donation"
)

// SObjects maps our object names to their API names.
var SObjects = map[string]string{
	ObjectContact:           "Contact",
	ObjectCampaign:          "Campaign",
	ObjectOpportunity:       "Opportunity",
	ObjectRecurringDonation: "npe03__Recurring_Donation__c",
}

// Token is the OAuth token endpoint's answer.
type Token struct {
	AccessToken string `json:"access_token"`
	InstanceURL string `json:"instance_url"`
	ID          string `json:"id"`
	TokenType   string `json:"token_type"`
	IssuedAt    string `json:"issued_at"`
	Signature   string `json:"signature"`
}

// OAuthError is the token endpoint's refusal.
type OAuthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// Describe is GET /sobjects/{Object}/describe, the parts the mapping validation reads.
type Describe struct {
	Name   string  `json:"name"`
	Label  string  `json:"label"`
	Fields []Field `json:"fields"`
}

// Field is one field of a describe.
type Field struct {
	Name              string          `json:"name"`
	Label             string          `json:"label"`
	Type              string          `json:"type"` // string, email, phone, textarea, picklist, currency, double, int, date, datetime, boolean, reference, id
	Length            int             `json:"length"`
	ExternalID        bool            `json:"externalId"`
	Nillable          bool            `json:"nillable"`
	Createable        bool            `json:"createable"`
	Updateable        bool            `json:"updateable"`
	DefaultedOnCreate bool            `json:"defaultedOnCreate"`
	PicklistValues    []PicklistValue `json:"picklistValues"`
	ReferenceTo       []string        `json:"referenceTo"`
	RelationshipName  string          `json:"relationshipName,omitempty"`
}

// PicklistValue is one value a picklist field takes.
type PicklistValue struct {
	Value  string `json:"value"`
	Label  string `json:"label"`
	Active bool   `json:"active"`
}

// Field returns the describe's field by API name.
func (d Describe) Field(name string) (Field, bool) {
	for _, f := range d.Fields {
		if strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return Field{}, false
}

// Reference returns the field of d that looks up the object named to (its relationship name is
// what an upsert sets to {"ExternalIdField": value}).
func (d Describe) Reference(to string) (Field, bool) {
	for _, f := range d.Fields {
		for _, r := range f.ReferenceTo {
			if r == to && f.RelationshipName != "" {
				return f, true
			}
		}
	}
	return Field{}, false
}

// Record is one sObject as the REST API writes it: "attributes" plus field values.
type Record map[string]any

// Attributes is a record's "attributes" member.
type Attributes struct {
	Type string `json:"type"`
	URL  string `json:"url,omitempty"`
}

// Collection is the body of PATCH /composite/sobjects/{Object}/{ExternalIdField}.
type Collection struct {
	AllOrNone bool     `json:"allOrNone"`
	Records   []Record `json:"records"`
}

// SaveResult is one record's outcome of an upsert.
type SaveResult struct {
	ID      string  `json:"id,omitempty"`
	Success bool    `json:"success"`
	Errors  []Error `json:"errors"`
	Created bool    `json:"created"`
}

// Error is an error of a record (statusCode) or of a whole request (errorCode).
type Error struct {
	StatusCode string   `json:"statusCode,omitempty"`
	ErrorCode  string   `json:"errorCode,omitempty"`
	Message    string   `json:"message"`
	Fields     []string `json:"fields,omitempty"`
}

// Code is the error's code, whichever member carries it.
func (e Error) Code() string {
	if e.ErrorCode != "" {
		return e.ErrorCode
	}
	return e.StatusCode
}

// QueryResult is GET /query's answer.
type QueryResult struct {
	TotalSize int      `json:"totalSize"`
	Done      bool     `json:"done"`
	Records   []Record `json:"records"`
}

// Limits is GET /limits, the part the sync reads (it does not count against the budget).
type Limits struct {
	DailyAPIRequests struct {
		Max       int `json:"Max"`
		Remaining int `json:"Remaining"`
	} `json:"DailyApiRequests"`
}

// Usage is the 24-hour API budget: calls used of the maximum.
type Usage struct {
	Used, Max int
}

// LimitHeader is the response header Salesforce reports the budget in.
const LimitHeader = "Sforce-Limit-Info"

// String is the header's value.
func (u Usage) String() string { return fmt.Sprintf("api-usage=%d/%d", u.Used, u.Max) }

// ParseUsage reads "api-usage=18/5000" (other entries, comma-separated, are skipped).
func ParseUsage(h string) (Usage, bool) {
	for part := range strings.SplitSeq(h, ",") {
		v, ok := strings.CutPrefix(strings.TrimSpace(part), "api-usage=")
		if !ok {
			continue
		}
		used, limit, ok := strings.Cut(v, "/")
		if !ok {
			return Usage{}, false
		}
		u, err1 := strconv.Atoi(used)
		m, err2 := strconv.Atoi(limit)
		if err1 != nil || err2 != nil || u < 0 || m < 0 {
			return Usage{}, false
		}
		return Usage{Used: u, Max: m}, true
	}
	return Usage{}, false
}
