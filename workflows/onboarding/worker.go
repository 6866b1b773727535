package onboarding

import (
	"go.temporal.io/sdk/worker"

	"github.com/aporta/aporta/tenants"
)

// Register adds the onboarding workflow and its activities to a worker on TaskQueue; staffInbox
// receives the review reminders.
func Register(w worker.Registry, t *tenants.Tenants, m Mailer, staffInbox string) {
	w.RegisterWorkflow(Workflow)
	w.RegisterActivity(&Activities{Tenants: t, Mailer: m, StaffInbox: staffInbox})
}
