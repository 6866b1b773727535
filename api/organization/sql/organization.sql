-- name: GetOrganization
SELECT o.name, o.country, coalesce(o.uid_type, ''), coalesce(o.uid, ''), o.timezone, o.plan_code, o.status,
       o.onboarding_steps, o.created_at,
       coalesce(p.short_description, ''), coalesce(p.allowed_domains, '{}'), coalesce(p.address, '{}'),
       coalesce(p.administrative_contact, '{}'), p.logo_key,
       coalesce(p.suggest_monthly_recurrence, false), coalesce(p.improve_donation_experience, false),
       coalesce(p.recover_rejected_donations, false),
       EXISTS (SELECT 1 FROM campaigns c WHERE c.organization_id = o.organization_id)
FROM organizations o
LEFT JOIN organization_profiles p ON p.organization_id = o.organization_id
WHERE o.organization_id = $1;

-- name: EnsureProfile
INSERT INTO organization_profiles (organization_id) VALUES ($1) ON CONFLICT (organization_id) DO NOTHING;

-- name: UpdateProfile
UPDATE organization_profiles
SET short_description      = coalesce($2, short_description),
    allowed_domains        = coalesce($3, allowed_domains),
    address                = coalesce($4, address),
    administrative_contact = coalesce($5, administrative_contact),
    updated_at = now()
WHERE organization_id = $1;

-- name: UpdateTimezone
UPDATE organizations SET timezone = $2, updated_at = now() WHERE organization_id = $1;

-- name: UpdatePermissions
UPDATE organization_profiles
SET suggest_monthly_recurrence  = coalesce($2, suggest_monthly_recurrence),
    improve_donation_experience = coalesce($3, improve_donation_experience),
    recover_rejected_donations  = coalesce($4, recover_rejected_donations),
    updated_at = now()
WHERE organization_id = $1;

-- name: SetLogo
-- Returns the previous key so the old object can be deleted after the commit.
WITH old AS (SELECT logo_key FROM organization_profiles WHERE organization_id = $1 FOR UPDATE)
UPDATE organization_profiles p SET logo_key = $2, updated_at = now()
FROM old WHERE p.organization_id = $1
RETURNING old.logo_key;

-- name: GetLogoKey
SELECT logo_key FROM organization_profiles WHERE organization_id = $1;

