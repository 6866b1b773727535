-- name: OpenDocumentReview :exec
INSERT INTO document_reviews (organization_id, requested_at) VALUES ($1, now())
ON CONFLICT (organization_id) DO UPDATE
SET requested_at = CASE WHEN document_reviews.closed_at IS NULL THEN document_reviews.requested_at ELSE now() END,
    closed_at = NULL, reminded_at = CASE WHEN document_reviews.closed_at IS NULL THEN document_reviews.reminded_at END,
    updated_at = now();

-- name: CloseDocumentReview :exec
UPDATE document_reviews SET closed_at = now(), updated_at = now()
WHERE organization_id = $1 AND closed_at IS NULL;

-- name: DocumentReview :one
SELECT * FROM document_reviews WHERE organization_id = $1;

-- name: MarkDocumentReviewReminded :exec
UPDATE document_reviews SET reminded_at = now(), updated_at = now() WHERE organization_id = $1;
