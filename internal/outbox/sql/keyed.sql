-- name: RecordKeyedEmail
-- In the message's transaction: a second caller with the key waits on the primary key until the
-- first commits, then inserts nothing and rolls its message back.
INSERT INTO workflow_emails (key, outbox_id) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING;

-- name: OrganizationAdministrators
SELECT user_id FROM memberships
WHERE organization_id = $1 AND role = 'administrator' AND discarded_at IS NULL
ORDER BY created_at;
