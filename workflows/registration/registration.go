// Package registration finishes a signup as one recoverable operation: once the API has created the
// Kratos identity, this workflow creates the organisation in the directory and its country shard,
// makes the user its administrator (membership + Keto relation), starts the onboarding workflow and
// marks the registration completed. Every activity is idempotent and retried, so a failure half way
// (a shard or Keto down) is finished by Temporal, and a client retry with the same idempotency key
// joins the same workflow (its id is derived from the key) instead of making a second organisation.
package registration

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/identity"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/onboarding"
	"github.com/aporta/aporta/workflows/subscription"
)

// TaskQueue is the registration task queue.
const TaskQueue = "registration"

// WorkflowID is derived from the client's idempotency key.
func WorkflowID(key string) string { return "registration/" + key }

// Input describes the signup; it carries no password (workflow histories are not secret stores).
type Input struct {
	Key            string
	OrganizationID string
	UserID         string
	Name           string
	Country        string
	UIDType        string
	UID            string
	Phone          string
}

// ActivityOptions: each step is idempotent and retried through an outage of up to a day; invalid
// input fails at once (non-retryable errors).
var ActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    20 * time.Second,
	ScheduleToCloseTimeout: 24 * time.Hour,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second,
	},
}

// Workflow runs the steps in order; each is retried until it succeeds or its retries run out.
func Workflow(ctx workflow.Context, in Input) error {
	ctx = workflow.WithActivityOptions(ctx, ActivityOptions)
	var a *Activities
	for _, step := range []any{a.CreateOrganization, a.AddAdministrator, a.StartOnboarding, a.Complete} {
		if err := workflow.ExecuteActivity(ctx, step, in).Get(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

// Grants is the Keto write the workflow needs.
type Grants interface {
	Grant(ctx context.Context, namespace, object, relation, userID string) error
}

// Activities are the registration's side effects.
type Activities struct {
	Tenants  *tenants.Tenants
	Keto     Grants
	Temporal client.Client
}

// CreateOrganization creates the organisation in the directory and its shard (idempotent on the id)
// and records its tax id.
func (a *Activities) CreateOrganization(ctx context.Context, in Input) error {
	id, err := uuid.Parse(in.OrganizationID)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("bad organization id", "bad_input", err)
	}
	if err := a.Tenants.CreateOrganization(ctx, tenants.Organization{ID: id, Name: in.Name, Country: in.Country}, ""); err != nil {
		if errors.Is(err, tenants.ErrUnknownCountry) {
			return temporal.NewNonRetryableApplicationError("unknown country", "bad_input", err)
		}
		return err
	}
	scope, err := a.Tenants.ForOrganization(ctx, id)
	if err != nil {
		return err
	}
	return scope.Store().SetOrganizationUID(ctx, sharddb.SetOrganizationUIDParams{OrganizationID: id, UidType: in.UIDType, Uid: in.UID})
}

// AddAdministrator records the membership and the Keto administrators relation (both idempotent).
func (a *Activities) AddAdministrator(ctx context.Context, in Input) error {
	org, user, err := ids(in)
	if err != nil {
		return err
	}
	if err := a.Tenants.AddMembership(ctx, user, org, "administrator"); err != nil {
		return err
	}
	return a.Keto.Grant(ctx, identity.NamespaceOrganization, org.String(), identity.RelationAdministrators, user.String())
}

// StartOnboarding starts the organisation's long processes: onboarding, and the subscription that
// gives an original customer its trial. Running ones are kept, so a retry is harmless.
func (a *Activities) StartOnboarding(ctx context.Context, in Input) error {
	_, err := a.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: onboarding.WorkflowID(in.OrganizationID), TaskQueue: onboarding.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, onboarding.Workflow, onboarding.Input{OrganizationID: in.OrganizationID})
	if err != nil {
		return err
	}
	orgID, err := uuid.Parse(in.OrganizationID)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("bad organization id", "bad_input", err)
	}
	_, err = subscription.Start(ctx, a.Temporal, subscription.TaskQueue, orgID)
	return err
}

// Complete claims the cellphone for the user and marks the registration done.
func (a *Activities) Complete(ctx context.Context, in Input) error {
	_, user, err := ids(in)
	if err != nil {
		return err
	}
	db := dirdb.Store(a.Tenants.Directory())
	if in.Phone != "" {
		if err := db.ClaimCellphone(ctx, dirdb.ClaimCellphoneParams{Phone: in.Phone, UserID: user}); err != nil {
			return err
		}
	}
	return db.CompleteRegistration(ctx, in.Key)
}

func ids(in Input) (org, user uuid.UUID, err error) {
	if org, err = uuid.Parse(in.OrganizationID); err == nil {
		user, err = uuid.Parse(in.UserID)
	}
	if err != nil {
		err = temporal.NewNonRetryableApplicationError(fmt.Sprintf("bad ids: %v", err), "bad_input", err)
	}
	return
}

// Register adds the workflow and its activities to a worker on TaskQueue.
func Register(w worker.Registry, t *tenants.Tenants, c client.Client) {
	cfg, err := config.FromEnv()
	if err != nil {
		panic(fmt.Sprintf("registration worker: %v", err))
	}
	keto := identity.NewKeto(cfg.KetoRead, cfg.KetoWrite, &http.Client{Timeout: 10 * time.Second})
	w.RegisterWorkflow(Workflow)
	w.RegisterActivity(&Activities{Tenants: t, Keto: keto, Temporal: c})
}
