package staff

import (
	"context"
	"slices"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
)

// Features are the flags staff may set on an organisation (organisation-and-account §6): several
// local payment processors, and global payments.
var Features = []string{"multiple_payment_gateways", "global_payments"}

// FeaturesRequest is POST /staff/api/organizations/{org}/features {features, reason}: the whole
// set of flags the organisation has afterwards.
type FeaturesRequest struct {
	OrgRequest
	Features []string `json:"features"`
	Reason   string   `json:"reason"`
}

// Validate requires a reason and known flags.
func (r *FeaturesRequest) Validate() error {
	for _, f := range r.Features {
		if !slices.Contains(Features, f) {
			return apierror.Validation(map[string]string{"features": "staff.feature_unknown"})
		}
	}
	return checkReason(&r.Reason, "staff.features_reason_required")
}

// SetFeatures sets the organisation's flags and audits the change with its reason.
func (h *Handler) SetFeatures(ctx context.Context, r *FeaturesRequest) (*Detail, error) {
	scope, err := h.scope(ctx, r.Org)
	if err != nil {
		return nil, err
	}
	features := slices.Compact(slices.Sorted(slices.Values(r.Features)))
	if features == nil {
		features = []string{}
	}
	if _, err := scope.Store().SetOrganizationFeatures(ctx, sharddb.SetOrganizationFeaturesParams{OrganizationID: scope.OrgID, Features: features}); err != nil {
		return nil, err
	}
	if _, err := h.audit(ctx, scope.OrgID, entry{action: ActionFeatures, reason: &r.Reason, features: features}); err != nil {
		return nil, err
	}
	return h.detail(ctx, scope)
}

func init() {
	i18n.Register(i18n.Catalog{
		"staff.feature_unknown": {i18n.ES: "Marca solo funciones que existen.", i18n.EN: "Only set features that exist.", i18n.PT: "Marque somente funções que existem."},
		"staff.features_reason_required": {
			i18n.ES: "Escribe por qué cambias las funciones de la organización (hasta 500 caracteres).",
			i18n.EN: "Write why you are changing the organisation's features (up to 500 characters).",
			i18n.PT: "Escreva por que você altera as funções da organização (até 500 caracteres).",
		},
	})
}
