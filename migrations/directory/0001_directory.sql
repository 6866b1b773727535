-- The directory (control plane): which organisation lives in which country shard, who belongs to which
-- organisation, and the public routes a donation form uses to find its shard. Not distributed.

CREATE TABLE organizations (
    id          uuid PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) >= 3),
    country     char(2) NOT NULL CHECK (country IN ('AR','BR','CL','CO','MX','PE','UY')),
    shard       text NOT NULL,
    status      text NOT NULL DEFAULT 'onboarding'
                CHECK (status IN ('onboarding','verifying','enabled','disabled')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- user_id is the Kratos identity id. Roles themselves live in Keto; role here is a read model for listings.
CREATE TABLE memberships (
    user_id          uuid NOT NULL,
    organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    role             text NOT NULL CHECK (role IN ('administrator','operator','supervisor')),
    discarded_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, organization_id)
);
CREATE INDEX memberships_organization_idx ON memberships (organization_id);

-- A public form arrives with only a slug or campaign uuid; this maps it to its organisation and shard.
CREATE TABLE public_routes (
    slug             text PRIMARY KEY CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,80}$'),
    campaign_id      uuid NOT NULL UNIQUE,
    organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    country          char(2) NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
