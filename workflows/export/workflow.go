// Package export builds files for download and e-mails their signed links: today the leads export
// (donor-and-campaigns §2.8): the CSV of the last 90 days' leads, stored in object storage under an
// unguessable token, and a link valid 24 hours. A Temporal schedule deletes leads older than the
// window every day.
package export

import (
	"crypto/rand"
	"encoding/base64"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the exports task queue.
const TaskQueue = "exports"

// LeadsWindow is how long leads are kept and exported (donor-and-campaigns §9).
const LeadsWindow = 90 * 24 * time.Hour

// WorkflowID identifies one export request (the request's idempotency key).
func WorkflowID(orgID, key string) string { return "export/leads/" + orgID + "/" + key }

// Input starts a leads export.
type Input struct {
	OrganizationID string `json:"organization_id"`
	Email          string `json:"email"`
	Lang           string `json:"lang"` // es, en or pt: the e-mail's language
}

// Result is what the workflow answers.
type Result struct {
	Token string `json:"token"`
	Rows  int    `json:"rows"`
}

// ActivityOptions: building the file and mailing its link, at most 20 attempts within two hours
// (the person who asked is waiting for the e-mail); invalid input fails at once.
var ActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    10 * time.Minute, // a large organisation's leads take a while
	ScheduleToCloseTimeout: 2 * time.Hour,
	HeartbeatTimeout:       time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval: 2 * time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute,
		MaximumAttempts: 20,
	},
}

// CleanupOptions: the daily cleanup tries 10 times; the next day's run catches up.
var CleanupOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 30 * time.Minute,
	RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 10 * time.Second, MaximumInterval: 10 * time.Minute, MaximumAttempts: 10},
}

// Workflow builds the CSV and e-mails its link.
func Workflow(ctx workflow.Context, in Input) (Result, error) {
	ctx = workflow.WithActivityOptions(ctx, ActivityOptions)
	var a *Activities
	var res Result
	// The token is drawn once and kept in history, so a retried build writes the same object.
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return newToken() }).Get(&res.Token); err != nil {
		return res, err
	}
	if err := workflow.ExecuteActivity(ctx, a.BuildLeadsCSV, in.OrganizationID, res.Token, workflow.Now(ctx)).Get(ctx, &res.Rows); err != nil {
		return res, err
	}
	err := workflow.ExecuteActivity(ctx, a.EmailLink, in, res.Token).Get(ctx, nil)
	return res, err
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CleanupWorkflow deletes leads older than the window in every shard and export files older than
// twice the link validity. The "leads-cleanup" schedule runs it daily.
func CleanupWorkflow(ctx workflow.Context) (int64, error) {
	ctx = workflow.WithActivityOptions(ctx, CleanupOptions)
	var a *Activities
	var n int64
	if err := workflow.ExecuteActivity(ctx, a.DeleteOldLeads, workflow.Now(ctx).Add(-LeadsWindow)).Get(ctx, &n); err != nil {
		return 0, err
	}
	err := workflow.ExecuteActivity(ctx, a.DeleteOldFiles, workflow.Now(ctx).Add(-2*LinkValidity)).Get(ctx, nil)
	return n, err
}
