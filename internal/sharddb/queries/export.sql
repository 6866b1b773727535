-- name: DeclareLeadsExportCursor :exec
-- Opens the cursor "leads" over the organisation's leads seen since the window's start, oldest
-- first; the export reads it in batches (FETCH) inside one snapshot.
DECLARE leads NO SCROLL CURSOR FOR
SELECT l.email, l.first_name, l.last_name, c.title, l.created_at, o.timezone
FROM leads l
JOIN campaigns c ON c.organization_id = l.organization_id AND c.id = l.campaign_id
JOIN organizations o ON o.organization_id = l.organization_id
WHERE l.organization_id = $1 AND l.updated_at >= sqlc.arg(seen_since)
ORDER BY l.created_at, l.id;

-- name: DeleteOldLeads :execrows
-- Leads not seen for the window are deleted (all organisations of the shard).
DELETE FROM leads WHERE updated_at < sqlc.arg(before);
