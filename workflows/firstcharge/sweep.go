package firstcharge

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/schedule"
)

// SweepScheduleID is the Temporal schedule that runs Sweep every SweepEvery.
const SweepScheduleID = "first-charge-sweep"

// SweepEvery is how often the sweep runs: a donation left open is guarded between Checks[0] and
// Checks[0]+SweepEvery after it was written.
const SweepEvery = time.Minute

// SweepBatch is how many open donations of a country one query reads; the sweep reads batches until none is left.
const SweepBatch = 500

// Sweep starts the guard (Workflow) of every donation whose first charge is still open (first_charge_open) a
// first wait after it was written. The donor's request writes the donation open before it charges, and closes it
// (Close) once it has settled the charge and sent what follows; so only a donation whose request died, whose
// answer was lost or whose payment the gateway left pending gets a guard, and a Temporal server that does not
// answer delays a guard but never a donation.
func Sweep(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 10 * time.Second, MaximumInterval: time.Minute, MaximumAttempts: 3},
	})
	var s *Sweeper
	return workflow.ExecuteActivity(ctx, s.GuardOpen, workflow.Now(ctx).Add(-Checks[0])).Get(ctx, nil)
}

// Sweeper starts first-charge guards.
type Sweeper struct {
	Tenants interface {
		Countries() []string
		Shard(country string) (*pgxpool.Pool, error)
	}
	Temporal client.Client
	// Organization limits the sweep to one organisation's donations (uuid.Nil: every organisation's).
	Organization uuid.UUID
}

// GuardOpen starts the guard of each donation written before cutoff whose first charge is open, in every country,
// and closes it; it answers how many it started. A donation whose start fails stays open for the next sweep.
func (s *Sweeper) GuardOpen(ctx context.Context, cutoff time.Time) (int, error) {
	var org *uuid.UUID
	if s.Organization != uuid.Nil {
		org = &s.Organization
	}
	started := 0
	for _, country := range s.Tenants.Countries() {
		pool, err := s.Tenants.Shard(country)
		if err != nil {
			return started, err
		}
		q := sharddb.Store(pool)
		for {
			rows, err := q.OpenFirstCharges(ctx, sharddb.OpenFirstChargesParams{Cutoff: cutoff, Org: org, MaxRows: SweepBatch})
			if err != nil {
				return started, fmt.Errorf("%s: %w", country, err)
			}
			for _, r := range rows {
				if err := s.guard(ctx, q, r.OrganizationID, r.ID); err != nil {
					return started, err
				}
				started++
				if activity.IsActivity(ctx) {
					activity.RecordHeartbeat(ctx, started)
				}
			}
			if len(rows) < SweepBatch {
				break
			}
		}
	}
	return started, nil
}

// guard starts one donation's guard and closes its first charge: the guard settles and follows it up from here.
func (s *Sweeper) guard(ctx context.Context, q *sharddb.Queries, orgID, donationID uuid.UUID) error {
	if err := Start(ctx, s.Temporal, Input{OrganizationID: orgID.String(), DonationID: donationID.String()}); err != nil {
		return fmt.Errorf("guard donation %s: %w", donationID, err)
	}
	return q.CloseFirstCharge(ctx, sharddb.CloseFirstChargeParams{OrganizationID: orgID, ID: donationID})
}

// Close says a donation's first charge is settled and followed up by its writer (the receipt and thank-you sent,
// a monthly donation's collection started), so the sweep starts no guard for it.
func Close(ctx context.Context, scope tenants.Scope, donationID uuid.UUID) error {
	return scope.Store().CloseFirstCharge(ctx, sharddb.CloseFirstChargeParams{OrganizationID: scope.OrgID, ID: donationID})
}

// RegisterSweep adds the sweep workflow and its activity to a worker on TaskQueue.
func RegisterSweep(w worker.Registry, s *Sweeper) {
	w.RegisterWorkflow(Sweep)
	w.RegisterActivity(s)
}

// KeepSweepSchedule makes sure the sweep's schedule exists, retrying in the background while the
// Temporal server is still coming up, until ctx ends.
func KeepSweepSchedule(ctx context.Context, c client.Client, queue string) {
	schedule.Keep(ctx, "first charges: sweep schedule", func(ctx context.Context) error {
		return schedule.Ensure(ctx, c, client.ScheduleOptions{ID: SweepScheduleID,
			Spec:   client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: SweepEvery}}},
			Action: &client.ScheduleWorkflowAction{ID: SweepScheduleID + "-run", Workflow: Sweep, TaskQueue: queue}})
	})
}
