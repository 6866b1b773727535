-- E-mails workflows hand to the outbox through api/outbox.Mailer, once per key: an activity retried
-- after the outbox kept the message finds its key here and does not queue a second one.
CREATE TABLE workflow_emails (
    key         text PRIMARY KEY,
    outbox_id   bigint NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
