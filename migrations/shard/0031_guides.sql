-- Guide (tour) progress per user and guide (organisation-and-account §3 "Guide progress", §4 Guides).
CREATE TABLE guide_progress (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    user_id          uuid NOT NULL,
    guide_name       text NOT NULL,
    step             integer NOT NULL CHECK (step >= 0 AND step <= 100),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, user_id, guide_name)
);
