-- The verification console (api/staff): the review queue and the staff audit log.

-- name: OrganizationsWaitingForReview :many
SELECT r.organization_id, o.name, o.country, o.status, r.requested_at, r.reminded_at
FROM document_reviews r
JOIN organizations o ON o.id = r.organization_id
WHERE r.closed_at IS NULL AND o.status <> 'enabled'
ORDER BY r.requested_at, r.organization_id;

-- name: InsertStaffAudit :one
INSERT INTO staff_audit_log (staff_user_id, staff_email, action, organization_id, document_type, attachment_id, reason, plan_code, features)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING id;

-- name: StaffAuditOf :many
SELECT * FROM staff_audit_log WHERE organization_id = $1
ORDER BY created_at DESC, id DESC;
