-- The organisation general page (organisation-and-account §2, §5, §6): logo, data and the consents the
-- organisation gives Aporta to contact its donors. Kept beside organizations, one row per organisation.
CREATE TABLE organization_profiles (
    organization_id              uuid PRIMARY KEY REFERENCES organizations (organization_id),
    short_description            text NOT NULL DEFAULT '' CHECK (length(short_description) <= 500),
    allowed_domains              text[] NOT NULL DEFAULT '{}',
    address                      jsonb NOT NULL DEFAULT '{}',
    administrative_contact       jsonb NOT NULL DEFAULT '{}',
    logo_key                     text,
    suggest_monthly_recurrence   boolean NOT NULL DEFAULT false,
    improve_donation_experience  boolean NOT NULL DEFAULT false,
    recover_rejected_donations   boolean NOT NULL DEFAULT false,
    updated_at                   timestamptz NOT NULL DEFAULT now()
);
