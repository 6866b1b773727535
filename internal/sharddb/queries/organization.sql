-- name: OrganizationProfile :one
SELECT o.name, o.country, coalesce(o.uid_type, '')::text AS uid_type, coalesce(o.uid, '')::text AS uid,
       o.timezone, o.plan_code, o.status, o.onboarding_steps, o.created_at,
       coalesce(p.short_description, '')::text AS short_description,
       coalesce(p.allowed_domains, '{}')::text[] AS allowed_domains,
       coalesce(p.address, '{}')::jsonb AS address,
       coalesce(p.administrative_contact, '{}')::jsonb AS administrative_contact, p.logo_key,
       coalesce(p.suggest_monthly_recurrence, false)::boolean AS suggest_monthly_recurrence,
       coalesce(p.improve_donation_experience, false)::boolean AS improve_donation_experience,
       coalesce(p.recover_rejected_donations, false)::boolean AS recover_rejected_donations,
       EXISTS (SELECT 1 FROM campaigns c WHERE c.organization_id = $1) AS has_campaigns
FROM organizations o
LEFT JOIN organization_profiles p ON p.organization_id = o.organization_id
WHERE o.organization_id = $1;

-- name: EnsureOrganizationProfile :exec
INSERT INTO organization_profiles (organization_id) VALUES ($1) ON CONFLICT (organization_id) DO NOTHING;

-- name: UpdateOrganizationProfile :exec
-- A NULL argument keeps the field as it is.
UPDATE organization_profiles
SET short_description      = coalesce(sqlc.narg(short_description)::text, short_description),
    allowed_domains        = coalesce(sqlc.narg(allowed_domains)::text[], allowed_domains),
    address                = coalesce(sqlc.narg(address)::jsonb, address),
    administrative_contact = coalesce(sqlc.narg(administrative_contact)::jsonb, administrative_contact),
    updated_at = now()
WHERE organization_id = $1;

-- name: UpdateOrganizationTimezone :exec
UPDATE organizations SET timezone = $2, updated_at = now() WHERE organization_id = $1;

-- name: UpdateOrganizationPermissions :exec
-- A NULL argument keeps the consent as it is.
UPDATE organization_profiles
SET suggest_monthly_recurrence  = coalesce(sqlc.narg(suggest_monthly_recurrence)::boolean, suggest_monthly_recurrence),
    improve_donation_experience = coalesce(sqlc.narg(improve_donation_experience)::boolean, improve_donation_experience),
    recover_rejected_donations  = coalesce(sqlc.narg(recover_rejected_donations)::boolean, recover_rejected_donations),
    updated_at = now()
WHERE organization_id = $1;

-- name: SetOrganizationLogo :one
-- Returns the previous key so the old object can be deleted after the commit.
WITH old AS (SELECT logo_key FROM organization_profiles WHERE organization_id = $1 FOR UPDATE)
UPDATE organization_profiles p SET logo_key = sqlc.arg(logo_key)::text, updated_at = now()
FROM old WHERE p.organization_id = $1
RETURNING old.logo_key AS previous_key;

-- name: OrganizationLogoKey :one
SELECT logo_key FROM organization_profiles WHERE organization_id = $1;

-- name: OrganizationFacts :one
-- What features read of the organisation's row in its shard: name, country, time zone, language,
-- status, plan, effective plan (Essential during the trial) and whether it takes new donations.
SELECT o.name, o.country, o.timezone, coalesce(o.locale, 'es')::text AS locale, o.status, o.plan_code,
       e.plan_code::text AS effective_plan_code, o.accepting_donations
FROM organizations o
JOIN organization_effective_plans e ON e.organization_id = o.organization_id
WHERE o.organization_id = $1;

-- name: SetOrganizationIdentity :exec
-- The legal name and categories of the organisation general page; a NULL argument keeps the field.
UPDATE organization_profiles
SET legal_name = coalesce(sqlc.narg(legal_name)::text, legal_name),
    categories = coalesce(sqlc.narg(categories)::text[], categories), updated_at = now()
WHERE organization_id = sqlc.arg(organization_id);

-- name: OrganizationIdentity :one
SELECT coalesce(p.legal_name, '')::text AS legal_name, coalesce(p.categories, '{}')::text[] AS categories
FROM organizations o LEFT JOIN organization_profiles p ON p.organization_id = o.organization_id
WHERE o.organization_id = $1;

-- name: AddOrganizationPicture :exec
INSERT INTO organization_pictures (organization_id, id, image_for, key, content_type)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(image_for), sqlc.arg(key), sqlc.arg(content_type));

-- name: OrganizationPictures :many
SELECT id, image_for, key, content_type, created_at FROM organization_pictures
WHERE organization_id = $1 ORDER BY created_at, id;

-- name: CountOrganizationPictures :one
SELECT count(*) FROM organization_pictures WHERE organization_id = $1 AND image_for = $2;

-- name: DeleteOrganizationPicture :one
DELETE FROM organization_pictures WHERE organization_id = $1 AND id = $2 RETURNING key;
