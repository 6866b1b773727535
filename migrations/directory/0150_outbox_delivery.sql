-- The outbox delivers after its record commits, outside any transaction, and retries what failed:
-- attempts counts deliveries tried; next_attempt_at is when the sweep may try again (NULL once
-- delivered or given up). html is the e-mail's HTML part (the text part stays in body).
ALTER TABLE outbox_messages
    ADD COLUMN html            text NOT NULL DEFAULT '',
    ADD COLUMN attempts        integer NOT NULL DEFAULT 0,
    ADD COLUMN next_attempt_at timestamptz;
CREATE INDEX outbox_messages_pending_idx ON outbox_messages (next_attempt_at)
    WHERE delivered_at IS NULL AND next_attempt_at IS NOT NULL;
-- The sweep purges messages and their keys after the retention.
CREATE INDEX outbox_messages_created_idx ON outbox_messages (created_at);
CREATE INDEX workflow_emails_created_idx ON workflow_emails (created_at);
