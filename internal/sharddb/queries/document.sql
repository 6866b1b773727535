-- name: DocumentRequirements :many
SELECT type, label_key, description_key, help_center_url
FROM country_documents WHERE country = $1 ORDER BY position, type;

-- name: OrganizationDocuments :many
SELECT type, status, coalesce(rejected_reason, '')::text AS rejected_reason, submitted_at, reviewed_at
FROM organization_documents WHERE organization_id = $1;

-- name: DocumentAttachments :many
SELECT id, document_type, original_filename, content_type, size_bytes, status, created_at
FROM document_attachments WHERE organization_id = $1 ORDER BY created_at, id;

-- name: LockDocument :one
-- Creates the document row when missing and locks it, so concurrent uploads count files one at a time.
INSERT INTO organization_documents (organization_id, type) VALUES ($1, $2)
ON CONFLICT (organization_id, type) DO UPDATE SET updated_at = organization_documents.updated_at
RETURNING status;

-- name: CountLiveDocumentAttachments :one
SELECT count(*) FROM document_attachments
WHERE organization_id = $1 AND document_type = $2 AND status <> 'rejected';

-- name: InsertDocumentAttachment :exec
INSERT INTO document_attachments (organization_id, id, document_type, blob_key, original_filename, content_type, size_bytes)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: DocumentAttachment :one
SELECT a.document_type, a.blob_key, a.original_filename, a.content_type, a.size_bytes, d.status
FROM document_attachments a
JOIN organization_documents d ON d.organization_id = a.organization_id AND d.type = a.document_type
WHERE a.organization_id = $1 AND a.id = $2;

-- name: DocumentAttachmentForUpdate :one
SELECT a.document_type, a.blob_key, d.status
FROM document_attachments a
JOIN organization_documents d ON d.organization_id = a.organization_id AND d.type = a.document_type
WHERE a.organization_id = $1 AND a.id = $2
FOR UPDATE OF d;

-- name: DeleteDocumentAttachment :exec
DELETE FROM document_attachments WHERE organization_id = $1 AND id = $2;

-- name: MarkDocumentReadyForReview :exec
UPDATE organization_documents
SET status = 'ready_for_review', submitted_at = now(), updated_at = now()
WHERE organization_id = $1 AND type = $2;

-- name: SetDocumentDecision :exec
UPDATE organization_documents
SET status = $3, rejected_reason = sqlc.narg(rejected_reason), reviewed_at = now(), updated_at = now()
WHERE organization_id = $1 AND type = $2;

-- name: SetDocumentAttachmentsStatus :exec
-- Approval approves the files under review; rejection rejects them. Files already rejected stay so.
UPDATE document_attachments SET status = $3
WHERE organization_id = $1 AND document_type = $2 AND status <> 'rejected';
