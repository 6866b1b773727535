package collection

import (
	"context"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	_ "time/tzdata" // organisation timezones resolve even on hosts without zone files

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/tenants"
)

// Register adds the donation workflow and its activities to a worker on TaskQueue. notices
// (at most one) e-mails donors; without it no decline e-mail is sent.
func Register(w worker.Registry, t *tenants.Tenants, gateways charge.Gateways, notices ...*Notices) {
	w.RegisterWorkflow(Workflow)
	n := &Notices{Tenants: t}
	if len(notices) > 0 {
		n = notices[0]
	}
	// Receipts are e-mailed as the notices are: by the same outbox, with the same secret signing links.
	w.RegisterActivity(&Activities{Tenants: t, Gateways: gateways,
		Receipts: receipt.Mailer{Outbox: n.Mail, Links: receipt.Links{Secret: n.Keys.Secret}, PublicURL: n.PublicURL}})
	w.RegisterActivity(n)
}

// WorkerOptions are o with the limits of a worker on TaskQueue whose country pools hold dbConns
// connections each (APORTA_DB_MAX_CONNS). It runs at most twice that many workflow tasks, charges and
// bookkeeping local activities at once, instead of the SDK's 1,000 of each; the rest wait in the
// server's task queue, where they cost nothing. A charge holds a connection for its reads and its
// recording transaction and none while the gateway answers, so twice the pool keeps the pool busy.
// With 1,000, a collect day's due donations (deploy/benchcollect) put hundreds of charges in flight
// per worker, each queueing for a connection and heartbeating meanwhile (a write of its workflow's
// state at the server every 4 s), some long enough to miss a heartbeat and run again. (The
// production worker's 32 connections give 64 in flight: SIZING's 70 charges/s at 0.8 s of gateway
// latency need 56.)
func WorkerOptions(o worker.Options, dbConns int32) worker.Options {
	n := 2 * int(max(dbConns, 1))
	o.MaxConcurrentWorkflowTaskExecutionSize = n
	o.MaxConcurrentActivityExecutionSize = n
	o.MaxConcurrentLocalActivityExecutionSize = n
	return o
}

// Start starts a donation's workflow on queue (TaskQueue in production). Starting it again while
// it runs returns the running workflow (a no-op), and a closed one is never started again: a
// discarded donation stays discarded.
func Start(ctx context.Context, c client.Client, queue string, in Input) (client.WorkflowRun, error) {
	return c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       WorkflowID(in.DonationID),
		TaskQueue:                queue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, Workflow, in)
}

// Starter starts monthly donations' collection: starting it again is a no-op.
type Starter struct{ Temporal client.Client }

// StartRecurring starts the collection of a monthly donation on TaskQueue.
func (s Starter) StartRecurring(ctx context.Context, orgID, donationID uuid.UUID) error {
	_, err := Start(ctx, s.Temporal, TaskQueue, Input{OrganizationID: orgID.String(), DonationID: donationID.String()})
	return err
}
