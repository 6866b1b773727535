package workflows_test

import (
	"testing"

	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/workflows/export"
	"github.com/aporta/aporta/workflows/firstcharge"
	"github.com/aporta/aporta/workflows/onboarding"
	"github.com/aporta/aporta/workflows/registration"
	"github.com/aporta/aporta/workflows/subscription"
)

// Every activity's retries end: by a total time (schedule-to-close) or a number of attempts. An
// uncapped policy retries a broken call forever, holding the workflow and a worker slot. (The
// collection workflow's options are checked in its own package: they depend on its version.)
func TestEveryActivityHasARetryCap(t *testing.T) {
	for name, o := range map[string]workflow.ActivityOptions{
		"onboarding":         onboarding.ActivityOptions,
		"registration":       registration.ActivityOptions,
		"subscription":       subscription.ActivityOptions,
		"subscription plan":  subscription.ApplyPlanOptions,
		"export":             export.ActivityOptions,
		"export cleanup":     export.CleanupOptions,
		"first-charge check": firstcharge.ActivityOptions,
	} {
		if o.RetryPolicy == nil {
			t.Errorf("%s: no retry policy (the server's default retries forever)", name)
			continue
		}
		if o.ScheduleToCloseTimeout <= 0 && o.RetryPolicy.MaximumAttempts <= 0 {
			t.Errorf("%s: retries without a cap", name)
		}
	}
}
