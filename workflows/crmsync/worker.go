package crmsync

import "go.temporal.io/sdk/worker"

// Register registers the workflow and its activities.
func Register(r worker.Registry, a *Activities) {
	r.RegisterWorkflow(Workflow)
	r.RegisterActivity(a)
}
