-- Donor portal sessions held server-side (issue 20): the session cookie names a row here, so signing
-- out ends the session at once (revoked_at) instead of when its hour runs out.
CREATE TABLE donor_portal_sessions (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    id              uuid NOT NULL,
    donor_id        uuid NOT NULL,
    expires_at      timestamptz NOT NULL,
    revoked_at      timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, donor_id) REFERENCES donors (organization_id, id)
);
CREATE INDEX donor_portal_sessions_expires_idx ON donor_portal_sessions (organization_id, expires_at);
