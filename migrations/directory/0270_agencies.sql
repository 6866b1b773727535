-- External teams (agencies). An agency's settings live in its organisation's shard; who belongs to
-- which agency lives here, beside memberships, because a signed-in agent must be routed to their
-- organisation's shard before anything else is read. Roles and the organisation's grants are Keto
-- relations on the agency (identity/namespaces.keto.ts); role, acquisition and management here are
-- the read model the users list shows.
CREATE TABLE agency_members (
    user_id          uuid NOT NULL,
    organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    agency_id        uuid NOT NULL,
    role             text NOT NULL CHECK (role IN ('manager','operator','supervisor')),
    acquisition      boolean NOT NULL DEFAULT false,
    management       boolean NOT NULL DEFAULT false,
    discarded_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, organization_id, agency_id)
);
CREATE INDEX agency_members_agency_idx ON agency_members (organization_id, agency_id, created_at);

-- Agency administrators are organisation members whose only role is managing external teams.
ALTER TABLE memberships DROP CONSTRAINT memberships_role_check,
    ADD CONSTRAINT memberships_role_check CHECK (role IN ('administrator','operator','supervisor','agency_admin'));
ALTER TABLE invitations DROP CONSTRAINT invitations_role_check,
    ADD CONSTRAINT invitations_role_check CHECK (role IN ('administrator','operator','supervisor','agency_admin'));
