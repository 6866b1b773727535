package webhooks

import "go.temporal.io/sdk/worker"

// Register registers the workflows and their activities.
func Register(r worker.Registry, a *Activities) {
	r.RegisterWorkflow(EndpointWorkflow)
	r.RegisterWorkflow(DeliveryWorkflow)
	r.RegisterActivity(a)
}
