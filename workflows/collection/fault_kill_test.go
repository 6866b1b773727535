package collection_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/charge"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/tenants/tenantstest"
	"github.com/aporta/aporta/workflows/collection"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// The worker process of TestChargesSurviveWorkerKilledAtRandom is this test binary run again with
// these variables set: it runs TestCollectionWorkerProcess, which serves the queue until killed.
const (
	envWorkerQueue   = "APORTA_COLLECTION_TEST_WORKER_QUEUE"
	envWorkerSandbox = "APORTA_COLLECTION_TEST_WORKER_SANDBOX"
)

// TestCollectionWorkerProcess is not a test: it is the separate worker process the kill test starts
// (and kills with SIGKILL). Without its variables it does nothing.
func TestCollectionWorkerProcess(t *testing.T) {
	workflowtest.ServeProcess(t, envWorkerQueue, "TestChargesSurviveWorkerKilledAtRandom", func(_ client.Client, w worker.Registry) {
		cfg := tenantstest.Config(t)
		tt := tenantstest.Open(t)
		// The organisation's connection, as the test stored it: this process finds it in the shard.
		store, err := connections.Open(context.Background(), cfg)
		require.NoError(t, err)
		collection.Register(w, tt, charge.Connected(&connections.Clients{Store: store, Tenants: tt, BaseURL: os.Getenv(envWorkerSandbox), Timeout: 700 * time.Millisecond}, nil))
	})
}

// TestChargesSurviveWorkerKilledAtRandom runs the collection worker as a separate process and
// kills it with SIGKILL at random moments (restarting it each time) while, in each of several
// rounds, 20 monthly donations due today are charged on their collect day, with the sandbox timing
// out and failing after committing payments (the client cannot tell whether money moved, so every
// retry must read back instead of charging again). Afterwards every donation-period has exactly
// one approved payment in the sandbox and exactly one approved transaction in the shard: at most
// one (nothing charged twice) and at least one (nothing lost). Each round has donations of its
// own: collect-now charges only a due period, never next month's.
func TestChargesSurviveWorkerKilledAtRandom(t *testing.T) {
	const (
		donations      = 20
		rounds         = 4
		killsPerPeriod = 3
	)
	s := newBareStack(t, "collection-kill-") // the worker runs in its own process
	round := make([][]uuid.UUID, rounds)
	var ids []uuid.UUID
	for k := range round {
		round[k] = make([]uuid.UUID, donations)
		for i := range round[k] {
			round[k][i], _ = s.donation("APRO")
		}
		ids = append(ids, round[k]...)
	}

	p := workflowtest.StartProcess(t, &workflowtest.Process{Run: "TestCollectionWorkerProcess",
		Env: []string{envWorkerQueue + "=" + s.queue, envWorkerSandbox + "=" + s.sandbox}})

	// The killer: while each period is being charged, SIGKILL at killsPerPeriod random moments
	// 0.1–2.5 s apart, restarting the worker 0–400 ms later each time.
	killDuring := func(k int) (wait func()) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := 0; i < killsPerPeriod; i++ {
				time.Sleep(time.Duration(100+rand.IntN(2400)) * time.Millisecond)
				p.Kill()
				t.Logf("%s period %d: worker killed (%d)", time.Now().Format(time.StampMilli), k, p.Kills())
				time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
				p.Start()
			}
		}()
		return func() { <-done }
	}

	faults := []sandbox.Fault{
		{Mode: "timeout", Count: 8, AfterCommit: true, DelayMS: 1500},
		{Mode: "error500", Count: 8, AfterCommit: true},
		{Mode: "timeout", Count: 8, AfterCommit: true, DelayMS: 1500},
		{Mode: "timeout", Count: 4, DelayMS: 1500}, // before commit: nothing to read back
	}
	began := time.Now()
	for k := 1; k <= rounds; k++ {
		s.fault(faults[(k-1)%len(faults)])
		killed := killDuring(k)
		for _, id := range round[k-1] {
			s.start(id) // due today: charged at once
		}
		for _, id := range round[k-1] {
			s.waitState(id, 90*time.Second, charged(1), "waiting for a charged period of %s", id)
		}
		killed()
		t.Logf("round %d charged for %d donations after %s (%d kills so far)", k, donations, time.Since(began).Round(time.Millisecond), p.Kills())
	}
	s.fault(sandbox.Fault{Mode: "none"})
	require.GreaterOrEqual(t, p.Kills(), 3, "the worker was killed several times")

	for _, id := range ids {
		st := s.waitState(id, 90*time.Second, charged(1), "waiting for a charged period of %s", id)
		want := map[string]int{st.Recent[0].Period.String(): 1}
		require.Equal(t, want, s.approvedPerPeriod(id), "donation %s: one approved sandbox payment per due period", id)
		rows := s.transactions(id)
		require.Equal(t, want, approvedRows(rows), "donation %s: one approved transaction per due period: %v", id, rows)
		for _, r := range st.Recent {
			require.True(t, r.Approved, "donation %s period %s", id, r.Period)
		}
	}
	lost, activities, resumed := s.chargeRetries(ids)
	t.Logf("%d rounds × %d donations charged exactly once with %d worker kills in %s; %d workflow tasks were lost with their "+
		"worker (a local charge in one runs again on the next), %d charge attempts went on as activities after their local try, "+
		"%d of those activities' attempts were retried after their worker died (heartbeat timeout)", rounds, donations, p.Kills(),
		time.Since(began).Round(time.Millisecond), lost, activities, resumed)
	for _, id := range ids {
		s.update(id, collection.UpdateDiscard, collection.DiscardRequest{Actor: "it", Reason: "test over"})
	}
}

// chargeRetries reads the histories: workflow tasks that timed out (their worker was killed), Charge
// activities (an attempt whose local try did not settle it), and those activities' attempts started
// after a heartbeat timeout (their worker was killed).
func (s *stack) chargeRetries(ids []uuid.UUID) (lostTasks, activities, afterKill int) {
	for _, id := range ids {
		it := s.temporal.GetWorkflowHistory(context.Background(), collection.WorkflowID(id.String()), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		scheduled := map[int64]string{}
		for it.HasNext() {
			e, err := it.Next()
			require.NoError(s.t, err)
			if e.GetWorkflowTaskTimedOutEventAttributes() != nil {
				lostTasks++
			}
			if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
				scheduled[e.GetEventId()] = a.GetActivityType().GetName()
				if a.GetActivityType().GetName() == "Charge" {
					activities++
				}
			}
			a := e.GetActivityTaskStartedEventAttributes()
			if a == nil || a.GetAttempt() <= 1 || scheduled[a.GetScheduledEventId()] != "Charge" {
				continue
			}
			if a.GetLastFailure().GetTimeoutFailureInfo().GetTimeoutType() == enumspb.TIMEOUT_TYPE_HEARTBEAT {
				afterKill++
			}
		}
	}
	return lostTasks, activities, afterKill
}
