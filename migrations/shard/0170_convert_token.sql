-- The convert-to-monthly link (donor spec §1: a one-time donor is asked to give monthly) carries a
-- random secret that works once, for seven days, for the donation's own donor. The donation keeps
-- only sha256(donor id ‖ secret) and the expiry; converting clears both in the same statement.
ALTER TABLE donations
    ADD COLUMN convert_token_hash       bytea,
    ADD COLUMN convert_token_expires_at timestamptz;
