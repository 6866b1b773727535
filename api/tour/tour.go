// Package tour keeps each user's progress through the guide modals (§2 Guide modals, §4 Guides):
// step 0 means never seen, so the guide shows; dismissal saves step 1.
package tour

import (
	"context"
	"errors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Guides are the known guide names (§9) plus the 4-step campaign guide.
var Guides = map[string]int{
	"registration_completed":  1,
	"upload_documents":        1,
	"payment_gateways_config": 1,
	"create_campaign":         4,
}

// MaxStep bounds a stored step: a guide's step count, or 1 once dismissed.
func MaxStep(guide string) int { return max(Guides[guide], 1) }

// Progress is the body and answer of the tour calls.
type Progress struct {
	Step *int `json:"step"`
}

// Handler serves /manage/api/tours.
type Handler struct{}

// NewHandler builds the handler.
func NewHandler() Handler { return Handler{} }

// Mount mounts GET /manage/api/tours/{guideName} and PUT …/progress.
func (h Handler) Mount(g endpoint.Groups) {
	g.Manage.GET("/tours/:guide", g.Authz.Require(authz.View), endpoint.HandleScoped(Get))
	g.Manage.PUT("/tours/:guide/progress", g.Authz.Require(authz.View), endpoint.HandleScoped(Put))
}

// GetRequest names the guide.
type GetRequest struct {
	Guide string `path:"guide"`
}

// Validate answers an unknown guide as not found.
func (r *GetRequest) Validate() error { return knownGuide(r.Guide) }

// Get answers {"step": n}, 0 when never seen.
func Get(ctx context.Context, scope tenants.Scope, r *GetRequest) (*Progress, error) {
	step, err := scope.Store().GuideStep(ctx, sharddb.GuideStepParams{
		OrganizationID: scope.OrgID, UserID: authz.CurrentUser(ctx).ID, GuideName: r.Guide,
	})
	if err != nil && !errors.Is(err, dberr.ErrNotFound) {
		return nil, err
	}
	n := int(step)
	return &Progress{Step: &n}, nil
}

// PutRequest is the guide and its new step.
type PutRequest struct {
	Guide string `path:"guide" json:"-"`
	Progress
}

// Validate keeps the step within the guide.
func (r *PutRequest) Validate() error {
	if err := knownGuide(r.Guide); err != nil {
		return err
	}
	if r.Step == nil || *r.Step < 0 || *r.Step > MaxStep(r.Guide) {
		return apierror.Validation(map[string]string{"step": "tour.invalid_step"})
	}
	return nil
}

// Put saves the step and answers it back.
func Put(ctx context.Context, scope tenants.Scope, r *PutRequest) (*Progress, error) {
	err := scope.Store().SetGuideStep(ctx, sharddb.SetGuideStepParams{
		OrganizationID: scope.OrgID, UserID: authz.CurrentUser(ctx).ID, GuideName: r.Guide, Step: int32(*r.Step),
	})
	if err != nil {
		return nil, err
	}
	return &r.Progress, nil
}

func knownGuide(name string) error {
	if _, ok := Guides[name]; !ok {
		return apierror.NotFound()
	}
	return nil
}

func init() {
	i18n.Register(i18n.Catalog{
		"tour.invalid_step": {
			i18n.ES: "El paso de la guía no es válido.",
			i18n.EN: "The guide step is not valid.",
			i18n.PT: "A etapa do guia não é válida.",
		},
	})
}
