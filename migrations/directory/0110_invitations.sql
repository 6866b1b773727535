-- Invitations to join an organisation. The membership is made only when the invited person accepts
-- with the e-mailed token, so nothing is attached to an identity someone else may have registered
-- for that address. Only the token's SHA-256 is kept; accepting or cancelling deletes the row.
CREATE TABLE invitations (
    id               uuid PRIMARY KEY,
    organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email            text NOT NULL CHECK (email = lower(email)),
    first_name       text NOT NULL,
    last_name        text NOT NULL,
    role             text NOT NULL CHECK (role IN ('administrator','operator','supervisor')),
    token_hash       bytea NOT NULL UNIQUE,
    invited_by       uuid NOT NULL,
    expires_at       timestamptz NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (organization_id, email)
);
