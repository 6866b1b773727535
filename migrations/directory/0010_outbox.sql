-- Every message Kratos's courier hands to Aporta (verification and recovery codes by e-mail and SMS),
-- kept before any provider sees it, so delivery can be retried and dev/test can read the codes.
CREATE TABLE outbox_messages (
    id             bigserial PRIMARY KEY,
    recipient      text NOT NULL,
    message_type   text NOT NULL CHECK (message_type IN ('email', 'sms')),
    subject        text NOT NULL DEFAULT '',
    body           text NOT NULL DEFAULT '',
    template_type  text NOT NULL DEFAULT '',
    template_data  jsonb NOT NULL DEFAULT '{}'::jsonb,
    code           text NOT NULL DEFAULT '',
    adapter        text NOT NULL DEFAULT '',
    delivered_at   timestamptz,
    error          text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_messages_recipient_idx ON outbox_messages (lower(recipient), id DESC);
