-- name: Leads
-- The organisation's leads seen in the window (90 days), oldest first.
SELECT l.email, l.first_name, l.last_name, c.title, l.created_at, o.timezone
FROM leads l
JOIN campaigns c ON c.organization_id = l.organization_id AND c.id = l.campaign_id
JOIN organizations o ON o.organization_id = l.organization_id
WHERE l.organization_id = $1 AND l.updated_at >= $2
ORDER BY l.created_at, l.id;

-- name: DeleteOldLeads
-- Leads not seen for the window are deleted (all organisations of the shard).
DELETE FROM leads WHERE updated_at < $1;
