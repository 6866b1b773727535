-- name: Requirements
SELECT type, label_key, description_key, help_center_url
FROM country_documents WHERE country = $1 ORDER BY position, type;

-- name: Documents
SELECT type, status, coalesce(rejected_reason, ''), submitted_at, reviewed_at
FROM organization_documents WHERE organization_id = $1;

-- name: Attachments
SELECT id, document_type, original_filename, content_type, size_bytes, status, created_at
FROM document_attachments WHERE organization_id = $1 ORDER BY created_at, id;

-- name: LockDocument
-- Creates the document row when missing and locks it, so concurrent uploads count files one at a time.
INSERT INTO organization_documents (organization_id, type) VALUES ($1, $2)
ON CONFLICT (organization_id, type) DO UPDATE SET updated_at = organization_documents.updated_at
RETURNING status;

-- name: CountActiveAttachments
SELECT count(*) FROM document_attachments
WHERE organization_id = $1 AND document_type = $2 AND status <> 'rejected';

-- name: InsertAttachment
INSERT INTO document_attachments (organization_id, id, document_type, blob_key, original_filename, content_type, size_bytes)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: GetAttachment
SELECT a.document_type, a.blob_key, a.original_filename, a.content_type, a.size_bytes, d.status
FROM document_attachments a
JOIN organization_documents d ON d.organization_id = a.organization_id AND d.type = a.document_type
WHERE a.organization_id = $1 AND a.id = $2;

-- name: GetAttachmentForUpdate
SELECT a.document_type, a.blob_key, d.status
FROM document_attachments a
JOIN organization_documents d ON d.organization_id = a.organization_id AND d.type = a.document_type
WHERE a.organization_id = $1 AND a.id = $2
FOR UPDATE OF d;

-- name: DeleteAttachment
DELETE FROM document_attachments WHERE organization_id = $1 AND id = $2;

-- name: MarkReadyForReview
UPDATE organization_documents
SET status = 'ready_for_review', submitted_at = now(), updated_at = now()
WHERE organization_id = $1 AND type = $2;

-- name: SetDecision
UPDATE organization_documents
SET status = $3, rejected_reason = $4, reviewed_at = now(), updated_at = now()
WHERE organization_id = $1 AND type = $2;

-- name: SetAttachmentsStatus
-- Approval approves the files under review; rejection rejects them. Files already rejected stay so.
UPDATE document_attachments SET status = $3
WHERE organization_id = $1 AND document_type = $2 AND status <> 'rejected';

-- name: OrganizationStatus
SELECT status FROM organizations WHERE organization_id = $1;

-- name: OpenReview
INSERT INTO document_reviews (organization_id, requested_at) VALUES ($1, now())
ON CONFLICT (organization_id) DO UPDATE
SET requested_at = CASE WHEN document_reviews.closed_at IS NULL THEN document_reviews.requested_at ELSE now() END,
    closed_at = NULL, reminded_at = CASE WHEN document_reviews.closed_at IS NULL THEN document_reviews.reminded_at END,
    updated_at = now();

-- name: CloseReview
UPDATE document_reviews SET closed_at = now(), updated_at = now()
WHERE organization_id = $1 AND closed_at IS NULL;

-- name: GetReview
SELECT requested_at, closed_at FROM document_reviews WHERE organization_id = $1;
