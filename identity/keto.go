package identity

import (
	"context"
	"fmt"
	"net/http"
	"time"

	keto "github.com/ory/keto-client-go"
)

// Keto namespaces and relations, as identity/namespaces.keto.ts declares them.
const (
	NamespaceUser         = "User"
	NamespaceOrganization = "Organization"
	NamespaceStaff        = "Staff"
	NamespaceAgency       = "Agency"
	NamespaceCampaign     = "Campaign"
	NamespaceDonation     = "Donation"

	RelationAdministrators = "administrators"
	RelationOperators      = "operators"
	RelationSupervisors    = "supervisors"
	RelationMembers        = "members"
	RelationAgencyAdmins   = "agency_admins"
	// Agency relations: its organisation, its people's roles and the organisation's grants to them;
	// a campaign's and a donation's agencies, a donation's agents.
	RelationOrganizations = "organizations"
	RelationManagers      = "managers"
	RelationAcquisition   = "acquisition"
	RelationManagement    = "management"
	RelationAgencies      = "agencies"
	RelationAgents        = "agents"
	RelationCampaigns     = "campaigns"

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
	return k.Relate(ctx, namespace, object, relation, NamespaceUser, userID)
}

// Revoke removes a user's relation on an object (idempotent in Keto).
func (k *Keto) Revoke(ctx context.Context, namespace, object, relation, userID string) error {
	return k.Unrelate(ctx, namespace, object, relation, NamespaceUser, userID)
}

// Check asks whether the user has the permit (or relation) on the object. A permission granted is reused for
// CacheTTL (sessioncache.go); a refusal is not kept, so a grant made by another process (the worker's
// registration) counts at once.
func (k *Keto) Check(ctx context.Context, namespace, object, permit, userID string) (bool, error) {
	key, now := permitKey{namespace, object, permit, userID}, time.Now()
	_, gen, hit := permits.get(key, now)
	if hit {
		return true, nil
	}
	allowed, err := k.CheckNow(ctx, namespace, object, permit, userID)
	if allowed {
		permits.put(key, struct{}{}, now.Add(CacheTTL), gen)
	}
	return allowed, err
}

// CheckNow is Check asking Keto itself, whatever this process keeps.
func (k *Keto) CheckNow(ctx context.Context, namespace, object, permit, userID string) (bool, error) {
	res, _, err := k.read.PermissionApi.CheckPermission(ctx).
		Namespace(namespace).Object(object).Relation(permit).
		SubjectSetNamespace(NamespaceUser).SubjectSetObject(userID).SubjectSetRelation("").
		Execute()
	if err != nil {
		return false, fmt.Errorf("keto check %s:%s#%s: %w", namespace, object, permit, err)
	}
	return res.Allowed, nil
}

// Relate makes an object a subject of another's relation (Campaign:c#agencies@Agency:a), so a
// permit can traverse to the subject's permits.
func (k *Keto) Relate(ctx context.Context, namespace, object, relation, subjectNamespace, subjectObject string) error {
	defer forgetPermits() // the cached checks (sessioncache.go) may be stale now
	body := keto.CreateRelationshipBody{
		Namespace: &namespace, Object: &object, Relation: &relation,
		SubjectSet: &keto.SubjectSet{Namespace: subjectNamespace, Object: subjectObject, Relation: ""},
	}
	_, _, err := k.write.RelationshipApi.CreateRelationship(ctx).CreateRelationshipBody(body).Execute()
	if err != nil {
		return fmt.Errorf("keto relate %s:%s#%s@%s:%s: %w", namespace, object, relation, subjectNamespace, subjectObject, err)
	}
	return nil
}

// Unrelate deletes what Relate wrote (idempotent in Keto).
func (k *Keto) Unrelate(ctx context.Context, namespace, object, relation, subjectNamespace, subjectObject string) error {
	defer forgetPermits() // the cached checks (sessioncache.go) may be stale now
	_, err := k.write.RelationshipApi.DeleteRelationships(ctx).
		Namespace(namespace).Object(object).Relation(relation).
		SubjectSetNamespace(subjectNamespace).SubjectSetObject(subjectObject).SubjectSetRelation("").Execute()
	if err != nil {
		return fmt.Errorf("keto unrelate %s:%s#%s@%s:%s: %w", namespace, object, relation, subjectNamespace, subjectObject, err)
	}
	return nil
}

// RevokeAll deletes every subject of an object's relation (a discarded agency's people, say).
func (k *Keto) RevokeAll(ctx context.Context, namespace, object, relation string) error {
	defer forgetPermits() // the cached checks (sessioncache.go) may be stale now
	_, err := k.write.RelationshipApi.DeleteRelationships(ctx).Namespace(namespace).Object(object).Relation(relation).Execute()
	if err != nil {
		return fmt.Errorf("keto revoke all %s:%s#%s: %w", namespace, object, relation, err)
	}
	return nil
}
