package identity

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	kratos "github.com/ory/kratos-client-go"
)

// MarkEmailVerified marks the identity's e-mail address verified. Only for a caller that has just
// seen the person prove control of the address (an invitation token e-mailed to it).
func (k *Kratos) MarkEmailVerified(ctx context.Context, id uuid.UUID) error {
	i, _, err := k.admin.IdentityAPI.GetIdentity(ctx, id.String()).Execute()
	if err != nil {
		return fmt.Errorf("kratos get identity: %w", err)
	}
	traits, _ := i.Traits.(map[string]any)
	email, _ := traits["email"].(string)
	for n, a := range i.VerifiableAddresses {
		if a.Via == "email" && strings.EqualFold(a.Value, email) {
			at := fmt.Sprintf("/verifiable_addresses/%d", n)
			return k.Patch(ctx, id,
				kratos.JsonPatch{Op: "replace", Path: at + "/verified", Value: true},
				kratos.JsonPatch{Op: "replace", Path: at + "/status", Value: "completed"})
		}
	}
	return fmt.Errorf("identity %s has no e-mail address to verify", id)
}
