-- name: LockKeyedEmail
-- Holds the key until the caller's transaction ends. KeyedEmailSent runs after it as a statement of
-- its own, so its snapshot sees what the previous holder committed.
SELECT pg_advisory_xact_lock(hashtextextended('workflow_emails:' || $1, 0));

-- name: KeyedEmailSent
SELECT EXISTS (SELECT 1 FROM workflow_emails WHERE key = $1);

-- name: RecordKeyedEmail
INSERT INTO workflow_emails (key, outbox_id) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING;

-- name: OrganizationAdministrators
SELECT user_id FROM memberships
WHERE organization_id = $1 AND role = 'administrator' AND discarded_at IS NULL
ORDER BY created_at;
