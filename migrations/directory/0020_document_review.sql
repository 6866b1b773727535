-- Staff verification (organisation-and-account §2, issue 3 "Staff verification console").

-- The review queue spans countries, so it lives in the directory. A row is opened (requested_at set,
-- closed_at NULL) when every required document is ready for review, closed when staff reject a
-- document (the organisation has work to do) or enable the account. reminded_at records the staff
-- reminder sent as the review nears its 48-hour target.
CREATE TABLE document_reviews (
    organization_id  uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    requested_at     timestamptz NOT NULL,
    closed_at        timestamptz,
    reminded_at      timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_reviews_open_idx ON document_reviews (requested_at) WHERE closed_at IS NULL;

-- Every staff action: who, what, on which organisation and document, why, when. Append-only.
CREATE TABLE staff_audit_log (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    staff_user_id    uuid NOT NULL,
    staff_email      text NOT NULL,
    action           text NOT NULL CHECK (action IN ('approve_document','reject_document','enable_account','view_attachment')),
    organization_id  uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    document_type    text,
    attachment_id    uuid,
    reason           text,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_audit_log_org_idx ON staff_audit_log (organization_id, created_at);
