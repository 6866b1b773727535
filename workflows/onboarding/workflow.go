// Package onboarding follows an organisation from signup to an enabled account: the verification,
// gateway and documents steps, then review by staff. One workflow per organisation.
package onboarding

import (
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the onboarding task queue.
const TaskQueue = "onboarding"

// Steps in the order the onboarding step bar shows them.
const (
	StepVerification = "verification"
	StepGateway      = "gateway"
	StepDocuments    = "documents"
)

// Signals and queries.
const (
	SignalStepCompleted = "step-completed"
	SignalEnabled       = "account-enabled"
	// SignalDocumentReviewed carries a staff decision (Review); the organisation is e-mailed.
	SignalDocumentReviewed = "document-reviewed"
	QueryState             = "state"
)

// WorkflowID is derived from the organisation, so starting onboarding twice is a no-op.
func WorkflowID(orgID string) string { return "onboarding/" + orgID }

// Input starts the workflow.
type Input struct {
	OrganizationID string
}

// State is what the state query answers.
type State struct {
	Completed []string `json:"completed"`
	Status    string   `json:"status"`
}

// ActivityOptions: database writes and e-mails, retried through an outage of up to a day (then the
// workflow fails and shows in Temporal); invalid input fails at once (non-retryable errors).
var ActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    30 * time.Second,
	ScheduleToCloseTimeout: 24 * time.Hour,
	RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
}

// Workflow records each completed step; when every step is done the account waits for staff
// review ("verifying"); the enabled signal finishes onboarding.
func Workflow(ctx workflow.Context, in Input) (State, error) {
	ctx = workflow.WithActivityOptions(ctx, ActivityOptions)
	var a *Activities
	st := State{Status: "onboarding", Completed: []string{}}
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (State, error) { return st, nil }); err != nil {
		return st, err
	}

	steps := workflow.GetSignalChannel(ctx, SignalStepCompleted)
	enabled := workflow.GetSignalChannel(ctx, SignalEnabled)
	// Version 1 adds the staff reminder timer and the e-mails to the organisation.
	v := workflow.GetVersion(ctx, versionRemindersEmails, workflow.DefaultVersion, 1)
	reviews := workflow.GetSignalChannel(ctx, SignalDocumentReviewed)
	emailReview := func(r Review) {
		e := Email{Key: r.Key, Kind: EmailDocumentApproved, Params: map[string]string{"document_type": r.DocumentType}}
		if r.Decision == "rejected" {
			e.Kind, e.Params["reason"] = EmailDocumentRejected, r.Reason
		}
		if err := workflow.ExecuteActivity(ctx, a.EmailOrganization, in.OrganizationID, e).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("review e-mail failed", "key", r.Key, "error", err)
		}
	}
	var reminder workflow.Future
	remindIn := ReviewTarget - ReminderLead
	for st.Status != "enabled" {
		sel := workflow.NewSelector(ctx)
		if v >= 1 {
			sel.AddReceive(reviews, func(c workflow.ReceiveChannel, _ bool) {
				var r Review
				c.Receive(ctx, &r)
				emailReview(r)
			})
			if st.Status == "verifying" && reminder == nil {
				reminder = workflow.NewTimer(ctx, remindIn)
			}
			if reminder != nil {
				sel.AddFuture(reminder, func(f workflow.Future) {
					reminder = nil
					var next time.Duration
					if err := workflow.ExecuteActivity(ctx, a.RemindStaff, in.OrganizationID).Get(ctx, &next); err != nil || next <= 0 {
						next = time.Hour
					}
					remindIn = next
				})
			}
		}
		sel.AddReceive(steps, func(c workflow.ReceiveChannel, _ bool) {
			var step string
			c.Receive(ctx, &step)
			if !validStep(step) || slices.Contains(st.Completed, step) {
				return
			}
			if err := workflow.ExecuteActivity(ctx, a.CompleteStep, in.OrganizationID, step).Get(ctx, nil); err != nil {
				workflow.GetLogger(ctx).Error("recording step failed", "step", step, "error", err)
				return
			}
			st.Completed = append(st.Completed, step)
		})
		sel.AddReceive(enabled, func(c workflow.ReceiveChannel, _ bool) {
			c.Receive(ctx, nil)
			st.Status = "enabled"
		})
		sel.Select(ctx)

		next := st.Status
		if st.Status == "onboarding" && slices.Contains(st.Completed, StepDocuments) {
			next = "verifying"
		}
		if next != st.Status || st.Status == "enabled" {
			if err := workflow.ExecuteActivity(ctx, a.SetStatus, in.OrganizationID, next).Get(ctx, nil); err != nil {
				return st, err
			}
			st.Status = next
		}
	}
	if v >= 1 {
		// Decisions signalled together with the enablement still get their e-mails.
		for {
			var r Review
			if !reviews.ReceiveAsync(&r) {
				break
			}
			emailReview(r)
		}
		e := Email{Key: EmailAccountEnabled + "/" + in.OrganizationID, Kind: EmailAccountEnabled}
		// The account is enabled whatever happens to the e-mail; a failure is logged.
		if err := workflow.ExecuteActivity(ctx, a.EmailOrganization, in.OrganizationID, e).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("account enabled e-mail failed", "error", err)
		}
	}
	return st, nil
}

const versionRemindersEmails = "staff-reminder-and-emails"

func validStep(s string) bool {
	return s == StepVerification || s == StepGateway || s == StepDocuments
}
