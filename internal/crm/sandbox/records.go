package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/aporta/aporta/internal/crm"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// idPrefixes are Salesforce's key prefixes of the objects.
var idPrefixes = map[string]string{"Contact": "003", "Campaign": "701", "Opportunity": "006", "npe03__Recurring_Donation__c": "a09"}

func (s *Server) newID(object string) string {
	s.st.NextID++
	return fmt.Sprintf("%s%012dAAA", idPrefixes[object], s.st.NextID)
}

func describeOf(w http.ResponseWriter, r *http.Request) (crm.Describe, bool) {
	d, ok := schema[r.PathValue("object")]
	if !ok {
		writeErrors(w, http.StatusNotFound, "NOT_FOUND", "The requested resource does not exist")
	}
	return d, ok
}

func (s *Server) describe(_ *org, w http.ResponseWriter, r *http.Request) (int, any) {
	d, ok := describeOf(w, r)
	if !ok {
		return 0, nil
	}
	return http.StatusOK, d
}

func (s *Server) getByID(o *org, w http.ResponseWriter, r *http.Request) (int, any) {
	d, ok := describeOf(w, r)
	if !ok {
		return 0, nil
	}
	rec, ok := o.Records[d.Name][r.PathValue("id")]
	if !ok {
		writeErrors(w, http.StatusNotFound, "NOT_FOUND", "The requested resource does not exist")
		return 0, nil
	}
	return http.StatusOK, rec
}

// find returns the records of object whose field equals value.
func (o *org) find(object, field, value string) []crm.Record {
	var out []crm.Record
	for _, id := range o.Order[object] {
		rec := o.Records[object][id]
		if v, _ := rec[field].(string); v == value {
			out = append(out, rec)
		}
	}
	return out
}

func externalField(w http.ResponseWriter, d crm.Describe, name string) (crm.Field, bool) {
	f, ok := d.Field(name)
	if !ok || !f.ExternalID {
		writeErrors(w, http.StatusBadRequest, "INVALID_FIELD", fmt.Sprintf("Provided external ID field does not exist or is not accessible: %s", name))
		return crm.Field{}, false
	}
	return f, true
}

func (s *Server) getByExternalID(o *org, w http.ResponseWriter, r *http.Request) (int, any) {
	d, ok := describeOf(w, r)
	if !ok {
		return 0, nil
	}
	f, ok := externalField(w, d, r.PathValue("field"))
	if !ok {
		return 0, nil
	}
	found := o.find(d.Name, f.Name, r.PathValue("value"))
	if len(found) == 0 {
		writeErrors(w, http.StatusNotFound, "NOT_FOUND", "The requested resource does not exist")
		return 0, nil
	}
	return http.StatusOK, found[0]
}

// upsertRequest reads an upsert's object, external id field and body into v, or answers the error.
func upsertRequest(w http.ResponseWriter, r *http.Request, v any) (crm.Describe, crm.Field, bool) {
	d, ok := describeOf(w, r)
	if !ok {
		return d, crm.Field{}, false
	}
	f, ok := externalField(w, d, r.PathValue("field"))
	if !ok {
		return d, f, false
	}
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeErrors(w, http.StatusBadRequest, "JSON_PARSER_ERROR", err.Error())
		return d, f, false
	}
	return d, f, true
}

// upsertOne is PATCH /sobjects/{Object}/{Field}/{value}: 201 with created true, or 200 updating.
func (s *Server) upsertOne(o *org, w http.ResponseWriter, r *http.Request) (int, any) {
	var rec crm.Record
	d, f, ok := upsertRequest(w, r, &rec)
	if !ok {
		return 0, nil
	}
	if rec == nil {
		rec = crm.Record{}
	}
	rec[f.Name] = r.PathValue("value")
	res := s.upsert(o, d, f.Name, rec)
	if !res.Success {
		return http.StatusBadRequest, res.Errors
	}
	if res.Created {
		return http.StatusCreated, res
	}
	return http.StatusOK, res
}

// upsertCollection is PATCH /composite/sobjects/{Object}/{Field}: each record on its own
// (allOrNone false), results in the request's order.
func (s *Server) upsertCollection(o *org, w http.ResponseWriter, r *http.Request) (int, any) {
	var in crm.Collection
	d, f, ok := upsertRequest(w, r, &in)
	if !ok {
		return 0, nil
	}
	if len(in.Records) > crm.MaxCollection {
		writeErrors(w, http.StatusBadRequest, "EXCEEDED_ID_LIMIT", "record limit reached. cannot submit more than 200 records into this call")
		return 0, nil
	}
	if in.AllOrNone {
		writeErrors(w, http.StatusBadRequest, "INVALID_FIELD", "allOrNone is not supported by the sandbox")
		return 0, nil
	}
	out := make([]crm.SaveResult, len(in.Records))
	seen := map[string]bool{}
	for i, rec := range in.Records {
		v, _ := rec[f.Name].(string)
		switch {
		case v == "":
			out[i] = failed("MISSING_ARGUMENT", f.Name+" not specified", f.Name)
		case seen[v]:
			out[i] = failed("DUPLICATE_EXTERNAL_ID", "Duplicate external id specified: "+v, f.Name)
		default:
			seen[v] = true
			if a, ok := rec["attributes"].(map[string]any); ok && a["type"] != d.Name {
				out[i] = failed("INVALID_TYPE", "attributes.type must be "+d.Name)
				continue
			}
			out[i] = s.upsert(o, d, f.Name, rec)
		}
	}
	return http.StatusOK, out
}

func failed(code, message string, fields ...string) crm.SaveResult {
	return crm.SaveResult{Errors: []crm.Error{{StatusCode: code, Message: message, Fields: fields}}}
}

// upsert validates rec against d and creates or updates the record whose ext field has rec's value.
func (s *Server) upsert(o *org, d crm.Describe, ext string, in crm.Record) crm.SaveResult {
	value, _ := in[ext].(string)
	matches := o.find(d.Name, ext, value)
	if len(matches) > 1 {
		return failed("DUPLICATE_EXTERNAL_ID", fmt.Sprintf("%s %q matches %d records", ext, value, len(matches)), ext)
	}
	values := crm.Record{}
	for k, v := range in {
		if k == "attributes" {
			continue
		}
		if strings.HasSuffix(k, "__r") || isRelationship(d, k) {
			ref, res, ok := o.resolve(d, k, v)
			if !ok {
				return res
			}
			values[ref.Name] = res.ID
			continue
		}
		f, ok := d.Field(k)
		if !ok {
			return failed("INVALID_FIELD", fmt.Sprintf("No such column '%s' on sobject of type %s", k, d.Name), k)
		}
		if !f.Createable {
			return failed("INVALID_FIELD_FOR_INSERT_UPDATE", fmt.Sprintf("Unable to create/update fields: %s.", f.Name), f.Name)
		}
		if res, ok := check(f, v); !ok {
			return res
		}
		values[f.Name] = v
	}
	if len(matches) == 1 {
		rec := matches[0]
		for k, v := range values {
			rec[k] = v
		}
		return crm.SaveResult{ID: rec["Id"].(string), Success: true, Errors: []crm.Error{}}
	}
	var missing []string
	for _, f := range d.Fields {
		if !f.Nillable && !f.DefaultedOnCreate && values[f.Name] == nil {
			missing = append(missing, f.Name)
		}
	}
	if len(missing) > 0 {
		return failed("REQUIRED_FIELD_MISSING", fmt.Sprintf("Required fields are missing: [%s]", strings.Join(missing, ", ")), missing...)
	}
	id := s.newID(d.Name)
	values["Id"] = id
	values["attributes"] = crm.Attributes{Type: d.Name, URL: "/services/data/" + crm.APIVersion + "/sobjects/" + d.Name + "/" + id}
	if o.Records[d.Name] == nil {
		o.Records[d.Name] = map[string]crm.Record{}
	}
	o.Records[d.Name][id] = values
	o.Order[d.Name] = append(o.Order[d.Name], id)
	return crm.SaveResult{ID: id, Success: true, Created: true, Errors: []crm.Error{}}
}

func isRelationship(d crm.Describe, name string) bool {
	for _, f := range d.Fields {
		if f.RelationshipName == name {
			return true
		}
	}
	return false
}

// resolve reads {"ExternalIdField": "value"} set on a relationship name to the record it names.
func (o *org) resolve(d crm.Describe, rel string, v any) (crm.Field, crm.SaveResult, bool) {
	var ref crm.Field
	for _, f := range d.Fields {
		if f.RelationshipName == rel {
			ref = f
		}
	}
	m, ok := v.(map[string]any)
	if ref.Name == "" || !ok || len(m) != 1 {
		return ref, failed("INVALID_FIELD", fmt.Sprintf("No such column '%s' on sobject of type %s", rel, d.Name), rel), false
	}
	target := schema[ref.ReferenceTo[0]]
	for k, val := range m {
		f, ok := target.Field(k)
		s, _ := val.(string)
		if !ok || !f.ExternalID {
			return ref, failed("INVALID_FIELD", fmt.Sprintf("%s is not an external id field of %s", k, target.Name), rel), false
		}
		found := o.find(target.Name, f.Name, s)
		if len(found) != 1 {
			return ref, failed("INVALID_FIELD", fmt.Sprintf("Foreign key external ID: %s not found for field %s in entity %s", s, f.Name, target.Name), rel), false
		}
		return ref, crm.SaveResult{ID: found[0]["Id"].(string)}, true
	}
	panic("unreachable")
}

// check validates a value against a field's type as Salesforce does.
func check(f crm.Field, v any) (crm.SaveResult, bool) {
	if v == nil {
		if !f.Nillable {
			return failed("REQUIRED_FIELD_MISSING", fmt.Sprintf("Required fields are missing: [%s]", f.Name), f.Name), false
		}
		return crm.SaveResult{}, true
	}
	wrong := func() (crm.SaveResult, bool) {
		return failed("INVALID_TYPE_ON_FIELD_IN_RECORD", fmt.Sprintf("%s: value not of required type: %v", f.Label, v), f.Name), false
	}
	switch f.Type {
	case "currency", "double", "int", "percent":
		if _, ok := v.(float64); !ok {
			return wrong()
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return wrong()
		}
	case "date", "datetime":
		s, ok := v.(string)
		layout := time.DateOnly
		if f.Type == "datetime" {
			layout = time.RFC3339
		}
		if _, err := time.Parse(layout, s); !ok || err != nil {
			return wrong()
		}
	default: // string, textarea, email, phone, picklist
		s, ok := v.(string)
		if !ok {
			return wrong()
		}
		if f.Length > 0 && len([]rune(s)) > f.Length {
			return failed("STRING_TOO_LONG", fmt.Sprintf("%s: data value too large: %s (max length=%d)", f.Label, s, f.Length), f.Name), false
		}
		if f.Type == "email" && s != "" {
			if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
				return failed("INVALID_EMAIL_ADDRESS", fmt.Sprintf("%s: invalid email address: %s", f.Label, s), f.Name), false
			}
		}
		if f.Type == "picklist" && s != "" && !inPicklist(f, s) {
			return failed("INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", fmt.Sprintf("%s: bad value for restricted picklist field: %s", f.Label, s), f.Name), false
		}
	}
	return crm.SaveResult{}, true
}

func inPicklist(f crm.Field, v string) bool {
	for _, p := range f.PicklistValues {
		if p.Active && p.Value == v {
			return true
		}
	}
	return false
}

var soql = regexp.MustCompile(`(?is)^\s*SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(\w+)\s*(=|IN)\s*(\(.*\)|'(?:[^'\\]|\\.)*'))?(?:\s+LIMIT\s+(\d+))?\s*$`)
var literal = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)

// query runs the SOQL the sync needs: SELECT fields FROM Object [WHERE Field = 'v' | IN ('a', …)] [LIMIT n].
func (s *Server) query(o *org, w http.ResponseWriter, r *http.Request) (int, any) {
	m := soql.FindStringSubmatch(r.URL.Query().Get("q"))
	if m == nil {
		writeErrors(w, http.StatusBadRequest, "MALFORMED_QUERY", "unexpected token in query (the sandbox supports SELECT … FROM … [WHERE f = 'v' | f IN (…)] [LIMIT n])")
		return 0, nil
	}
	d, ok := schema[m[2]]
	if !ok {
		writeErrors(w, http.StatusBadRequest, "INVALID_TYPE", fmt.Sprintf("sObject type '%s' is not supported.", m[2]))
		return 0, nil
	}
	var fields []string
	for f := range strings.SplitSeq(m[1], ",") {
		f = strings.TrimSpace(f)
		df, ok := d.Field(f)
		if !ok {
			writeErrors(w, http.StatusBadRequest, "INVALID_FIELD", fmt.Sprintf("No such column '%s' on entity '%s'.", f, d.Name))
			return 0, nil
		}
		fields = append(fields, df.Name)
	}
	var want map[string]bool
	var whereField string
	if m[3] != "" {
		df, ok := d.Field(m[3])
		if !ok {
			writeErrors(w, http.StatusBadRequest, "INVALID_FIELD", fmt.Sprintf("No such column '%s' on entity '%s'.", m[3], d.Name))
			return 0, nil
		}
		whereField, want = df.Name, map[string]bool{}
		for _, l := range literal.FindAllStringSubmatch(m[5], -1) {
			want[strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(l[1])] = true
		}
	}
	limit := 2000
	if m[6] != "" {
		limit, _ = strconv.Atoi(m[6])
	}
	out := crm.QueryResult{Done: true, Records: []crm.Record{}}
	for _, id := range o.Order[d.Name] {
		rec := o.Records[d.Name][id]
		if want != nil {
			if v, _ := rec[whereField].(string); !want[v] {
				continue
			}
		}
		if len(out.Records) == limit {
			break
		}
		row := crm.Record{"attributes": rec["attributes"]}
		for _, f := range fields {
			row[f] = rec[f]
		}
		out.Records = append(out.Records, row)
	}
	out.TotalSize = len(out.Records)
	return http.StatusOK, out
}
