-- The donor portal's magic links (issue 20): a donor asks for a link with their e-mail and gets a
-- signed, expiring link into their donations in one organisation. The link names a row here; the
-- portal consumes it once (used_at) in the statement that checks it, so a link opens one session.
-- A tenant table: organization_id leads its primary key and its foreign key.
CREATE TABLE donor_portal_links (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    id              uuid NOT NULL,
    donor_id        uuid NOT NULL,
    purpose         text NOT NULL DEFAULT 'access' CHECK (purpose IN ('access', 'card_declined')),
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, donor_id) REFERENCES donors (organization_id, id)
);
CREATE INDEX donor_portal_links_expires_idx ON donor_portal_links (organization_id, expires_at);
