-- name: OrganizationMailInfo
SELECT name, COALESCE(locale, 'es') FROM organizations WHERE organization_id = $1;

-- name: GetReview
SELECT requested_at, closed_at, reminded_at FROM document_reviews WHERE organization_id = $1;

-- name: MarkReminded
UPDATE document_reviews SET reminded_at = now(), updated_at = now() WHERE organization_id = $1;
