-- Signups in progress, keyed by the client's idempotency key: the organisation id is fixed on the
-- first attempt so a retried registration finishes the same organisation instead of making another.
CREATE TABLE registrations (
    idempotency_key  text PRIMARY KEY CHECK (length(idempotency_key) BETWEEN 8 AND 100),
    organization_id  uuid NOT NULL UNIQUE,
    user_id          uuid,
    email            text NOT NULL,
    phone            text NOT NULL,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registrations_email_idx ON registrations (lower(email)) WHERE status = 'pending';
CREATE INDEX registrations_phone_idx ON registrations (phone) WHERE status = 'pending';

-- Cellphones are not Kratos login identifiers, so their uniqueness is kept here (E.164).
CREATE TABLE user_phones (
    phone       text PRIMARY KEY,
    user_id     uuid NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- The Kratos verification flow a code was last sent with, per user and channel, and how many wrong
-- codes were tried against it (capped; a new code resets the count).
CREATE TABLE verification_flows (
    user_id     uuid NOT NULL,
    channel     text NOT NULL CHECK (channel IN ('email', 'cellphone')),
    flow_id     uuid NOT NULL,
    address     text NOT NULL,
    attempts    int NOT NULL DEFAULT 0,
    sent_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, channel)
);
