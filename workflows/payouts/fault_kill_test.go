package payouts_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/workflows/payouts"
	"github.com/aporta/aporta/workflows/payouts/payoutstest"
	"github.com/aporta/aporta/workflows/workflowtest"
)

// The worker process of TestNoPayoutPaidTwiceWhenTheWorkerIsKilled is this test binary run again
// with these variables set (TestPayoutsWorkerProcess serves the queue until killed).
const (
	envQueue   = "APORTA_PAYOUTS_TEST_WORKER_QUEUE"
	envSandbox = "APORTA_PAYOUTS_TEST_SANDBOX"
)

// TestPayoutsWorkerProcess is not a test: it is the worker process the kill test starts and kills
// with SIGKILL. Without its variables it does nothing.
func TestPayoutsWorkerProcess(t *testing.T) {
	workflowtest.ServeProcess(t, envQueue, "TestNoPayoutPaidTwiceWhenTheWorkerIsKilled", func(_ client.Client, w worker.Registry) {
		payouts.Register(w, payoutstest.Activities(t, os.Getenv(envSandbox)))
	})
}

// TestNoPayoutPaidTwiceWhenTheWorkerIsKilled runs the payouts worker as a separate process and kills
// it with SIGKILL while payouts are in flight: made at the sandbox, whose answers hang after the
// payout was made, and not yet recorded as paid (restarting it each time). Afterwards each
// organisation has exactly one payout in the sandbox's ledger, of its net, and one paid payout row:
// nothing paid twice, nothing lost.
func TestNoPayoutPaidTwiceWhenTheWorkerIsKilled(t *testing.T) {
	const orgs, kills = 4, 2
	srv := sandboxtest.Serve(t, sandbox.Options{})
	worlds := make([]*payoutstest.World, orgs)
	nets := make([]int64, orgs)
	for i := range worlds {
		worlds[i] = payoutstest.New(t, srv.URL, [16]byte{})
		worlds[i].BankAccount()
		for _, minor := range []int64{100000, 70000} {
			nets[i] += worlds[i].Donate(minor).Net()
		}
	}

	c := workflowtest.Client(t)
	queue := fmt.Sprint("payouts-kill-", time.Now().UnixNano())
	p := workflowtest.StartProcess(t, &workflowtest.Process{Run: "TestPayoutsWorkerProcess", Env: []string{envQueue + "=" + queue, envSandbox + "=" + srv.URL}})

	// Answers that hang after the payout was made: a retry that paid again would double it.
	worlds[0].SetFault(sandbox.Fault{Mode: "timeout", Count: kills * orgs, AfterCommit: true, DelayMS: 3000})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	done := make(chan error, orgs)
	for _, w := range worlds {
		go func() { done <- payouts.Client{Temporal: c, Queue: queue}.RunCycle(ctx, w.Scope.OrgID) }()
	}
	for range kills {
		require.Eventually(t, func() bool { return inFlight(ctx, worlds) }, 2*time.Minute, 50*time.Millisecond,
			"a payout made at the processor and not yet recorded")
		p.Kill()
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		p.Start()
	}
	worlds[0].SetFault(sandbox.Fault{Mode: "error500", Count: 3, AfterCommit: true})
	for range orgs {
		require.NoError(t, <-done)
	}
	for i, w := range worlds {
		ledger := w.Ledger()
		require.Len(t, ledger, 1, "organisation %d: one payout at the processor", i)
		require.Equal(t, payoutstest.Decimal(nets[i]), ledger[0].Amount)
		ps := w.Payouts()
		require.Len(t, ps, 1)
		require.Equal(t, payouts.StatusPaid, ps[0].Status)
		require.Equal(t, ps[0].ID.String(), ledger[0].ExternalID)
	}
	require.Equal(t, kills, p.Kills())
}

// inFlight says whether a payout of one of the worlds is at the processor but still being sent here.
func inFlight(ctx context.Context, worlds []*payoutstest.World) bool {
	for _, w := range worlds {
		rows, err := w.Scope.Store().ListPayouts(ctx, sharddb.ListPayoutsParams{OrganizationID: w.Scope.OrgID, Lim: 1})
		if err != nil || len(rows) == 0 || rows[0].Status != payouts.StatusSending {
			continue
		}
		if made, err := w.Made(rows[0].ID.String()); err == nil && made {
			return true
		}
	}
	return false
}
