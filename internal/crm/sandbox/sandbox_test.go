package sandbox_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/crm"
	"github.com/aporta/aporta/internal/crm/sandbox"
)

func start(t *testing.T, limit int) (sandbox.Admin, string, *crm.Client, *[]crm.Call) {
	t.Helper()
	s, err := sandbox.New(sandbox.Options{})
	require.NoError(t, err)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	admin := sandbox.Admin{BaseURL: srv.URL}
	org, err := admin.NewOrg(context.Background(), limit)
	require.NoError(t, err)
	var calls []crm.Call
	c := &crm.Client{HTTP: &http.Client{Timeout: 2 * time.Second}, Creds: admin.Credentials(org),
		OnCall: func(c crm.Call) { calls = append(calls, c) }}
	return admin, org.ClientID, c, &calls
}

func TestUpsertIsIdempotentAndValidates(t *testing.T) {
	ctx := context.Background()
	_, _, c, calls := start(t, 100)

	d, err := c.Describe(ctx, "npe03__Recurring_Donation__c")
	require.NoError(t, err)
	status, ok := d.Field("npsp__Status__c")
	require.True(t, ok)
	assert.Equal(t, "picklist", status.Type)
	ref, ok := d.Reference("Contact")
	require.True(t, ok)
	assert.Equal(t, "npe03__Contact__r", ref.RelationshipName)

	contacts := func() []crm.Record {
		return []crm.Record{{"Aporta_Id__c": "d1", "LastName": "Pérez", "Email": "ana@example.org"}, {"Aporta_Id__c": "d2", "Email": "no-last-name@example.org"}}
	}
	res, err := c.Upsert(ctx, "Contact", "Aporta_Id__c", contacts())
	require.NoError(t, err)
	assert.True(t, res[0].Success && res[0].Created)
	assert.False(t, res[1].Success)
	assert.Equal(t, "REQUIRED_FIELD_MISSING", res[1].Errors[0].Code())

	// The same batch again (a retry) updates, never duplicates.
	again, err := c.Upsert(ctx, "Contact", "Aporta_Id__c", contacts())
	require.NoError(t, err)
	assert.Equal(t, res[0].ID, again[0].ID)
	assert.False(t, again[0].Created)

	rd, err := c.Upsert(ctx, "npe03__Recurring_Donation__c", "Aporta_Id__c", []crm.Record{
		{"Aporta_Id__c": "x1", "npe03__Amount__c": 1500.5, "npsp__Status__c": "Active", "npe03__Contact__r": map[string]any{"Aporta_Id__c": "d1"}},
		{"Aporta_Id__c": "x2", "npsp__Status__c": "Sleeping"},
		{"Aporta_Id__c": "x3", "npe03__Contact__r": map[string]any{"Aporta_Id__c": "nobody"}},
		{"Aporta_Id__c": "x4", "Bogus__c": "1"},
	})
	require.NoError(t, err)
	assert.True(t, rd[0].Success)
	assert.Equal(t, "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", rd[1].Errors[0].Code())
	assert.Equal(t, "INVALID_FIELD", rd[2].Errors[0].Code())
	assert.Equal(t, "INVALID_FIELD", rd[3].Errors[0].Code())

	q, err := c.Query(ctx, "npe03__Recurring_Donation__c", "SELECT Id, npsp__Status__c, npe03__Contact__c FROM npe03__Recurring_Donation__c WHERE Aporta_Id__c IN ("+crm.Quote("x1")+", 'x9')")
	require.NoError(t, err)
	require.Len(t, q.Records, 1)
	assert.Equal(t, res[0].ID, q.Records[0]["npe03__Contact__c"])

	last := (*calls)[len(*calls)-1]
	require.NotNil(t, last.Usage)
	assert.Equal(t, crm.Usage{Used: 5, Max: 100}, *last.Usage) // describe, 3 upserts, query; the token call does not count
	assert.Equal(t, crm.OpToken, (*calls)[0].Operation)
}

func TestBudgetFaultsAndExpiredSessions(t *testing.T) {
	ctx := context.Background()
	admin, org, c, calls := start(t, 3)
	rec := func() []crm.Record { return []crm.Record{{"Aporta_Id__c": "c1", "Name": "Invierno"}} }

	_, err := c.Upsert(ctx, "Campaign", "Aporta_Id__c", rec())
	require.NoError(t, err)

	// An expired session: the client logs in again and repeats the call once.
	require.NoError(t, admin.Fault(ctx, org, sandbox.Fault{Mode: "expire_session"}))
	_, err = c.Upsert(ctx, "Campaign", "Aporta_Id__c", rec())
	require.NoError(t, err)
	ops := []string{}
	for _, call := range *calls {
		ops = append(ops, call.Operation)
	}
	assert.Equal(t, []string{crm.OpToken, crm.OpUpsert, crm.OpUpsert, crm.OpToken, crm.OpUpsert}, ops)

	// Past the budget (the expired call counted): 403 REQUEST_LIMIT_EXCEEDED, and /limits says so without counting.
	_, err = c.Upsert(ctx, "Campaign", "Aporta_Id__c", rec())
	require.ErrorIs(t, err, crm.ErrLimit)
	l, err := c.Limits(ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, l.DailyAPIRequests.Remaining)
	ten := 10
	require.NoError(t, admin.Usage(ctx, org, nil, &ten, true))

	// A 500 after the write landed, and a timeout: both transient, and the retry does not duplicate.
	require.NoError(t, admin.Fault(ctx, org, sandbox.Fault{Mode: "error500", AfterCommit: true}))
	_, err = c.Upsert(ctx, "Campaign", "Aporta_Id__c", []crm.Record{{"Aporta_Id__c": "c2", "Name": "Verano"}})
	require.True(t, crm.Transient(err), "%v", err)
	require.NoError(t, admin.Fault(ctx, org, sandbox.Fault{Mode: "timeout", DelayMS: 3000}))
	_, err = c.Upsert(ctx, "Campaign", "Aporta_Id__c", []crm.Record{{"Aporta_Id__c": "c2", "Name": "Verano"}})
	require.True(t, crm.Transient(err), "%v", err)
	_, err = c.Upsert(ctx, "Campaign", "Aporta_Id__c", []crm.Record{{"Aporta_Id__c": "c2", "Name": "Verano"}})
	require.NoError(t, err)
	q, err := c.Query(ctx, "Campaign", "SELECT Id, Name FROM Campaign")
	require.NoError(t, err)
	assert.Equal(t, 2, q.TotalSize)

	bad := &crm.Client{HTTP: http.DefaultClient, Creds: crm.Credentials{LoginURL: admin.BaseURL, ClientID: org, ClientSecret: "wrong"}}
	require.True(t, errors.Is(bad.Authenticate(ctx), crm.ErrAuth))
}
