package identity

import (
	"context"
	"fmt"
	"net/http"

	keto "github.com/ory/keto-client-go"
)

// Keto namespaces and relations, as identity/namespaces.keto.ts declares them.
const (
	NamespaceUser         = "User"
	NamespaceOrganization = "Organization"
	NamespaceStaff        = "Staff"

	RelationAdministrators = "administrators"
	RelationOperators      = "operators"
	RelationSupervisors    = "supervisors"
	RelationMembers        = "members"

	// StaffObject is the single Staff object product staff are members of.
	StaffObject = "aporta"
)

// Keto writes relationships and checks permissions.
type Keto struct {
	read, write *keto.APIClient
}

// NewKeto builds clients for Keto's read and write APIs.
func NewKeto(readURL, writeURL string, hc *http.Client) *Keto {
	client := func(u string) *keto.APIClient {
		cfg := keto.NewConfiguration()
		cfg.Servers = keto.ServerConfigurations{{URL: u}}
		cfg.HTTPClient = hc
		return keto.NewAPIClient(cfg)
	}
	return &Keto{read: client(readURL), write: client(writeURL)}
}

// Grant relates a user to an object (idempotent in Keto).
func (k *Keto) Grant(ctx context.Context, namespace, object, relation, userID string) error {
	body := keto.CreateRelationshipBody{
		Namespace: &namespace, Object: &object, Relation: &relation,
		SubjectSet: &keto.SubjectSet{Namespace: NamespaceUser, Object: userID, Relation: ""},
	}
	_, _, err := k.write.RelationshipApi.CreateRelationship(ctx).CreateRelationshipBody(body).Execute()
	if err != nil {
		return fmt.Errorf("keto grant %s:%s#%s: %w", namespace, object, relation, err)
	}
	return nil
}

// Check asks whether the user has the permit (or relation) on the object.
func (k *Keto) Check(ctx context.Context, namespace, object, permit, userID string) (bool, error) {
	res, _, err := k.read.PermissionApi.CheckPermission(ctx).
		Namespace(namespace).Object(object).Relation(permit).
		SubjectSetNamespace(NamespaceUser).SubjectSetObject(userID).SubjectSetRelation("").
		Execute()
	if err != nil {
		return false, fmt.Errorf("keto check %s:%s#%s: %w", namespace, object, permit, err)
	}
	return res.Allowed, nil
}
