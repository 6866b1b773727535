-- An e-mail change waiting for its code: the login e-mail switches only once the code sent to the
-- new address comes back (api/account). One pending change per user; a new request replaces it.
-- The code is kept as an HMAC, never in clear.
CREATE TABLE email_changes (
    user_id       uuid PRIMARY KEY,
    new_email     text NOT NULL,
    old_email     text NOT NULL,
    old_verified  boolean NOT NULL,
    code_hash     bytea NOT NULL,
    attempts      int NOT NULL DEFAULT 0,
    sent_at       timestamptz NOT NULL DEFAULT now()
);
