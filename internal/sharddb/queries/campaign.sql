-- Campaigns (api/campaign): the manage area's settings, the public form's read, visits and leads.

-- name: ListCampaigns :many
-- The organisation's campaigns, newest first; with id, that campaign alone (none: another
-- organisation's or unknown).
SELECT sqlc.embed(c), o.country
FROM campaigns c
JOIN organizations o ON o.organization_id = c.organization_id
WHERE c.organization_id = sqlc.arg(organization_id) AND (sqlc.narg(id)::uuid IS NULL OR c.id = sqlc.narg(id))
ORDER BY c.created_at DESC, c.id
LIMIT sqlc.arg(per_page) OFFSET sqlc.arg(skip);

-- name: FormCampaign :one
-- A public form's campaign with its organisation's facts (OrganizationFacts' columns), in one statement: a form's
-- read and every submission's (issue 19: on Citus each statement is planned on the coordinator and the worker).
SELECT sqlc.embed(c), o.name, o.country, o.timezone, coalesce(o.locale, 'es')::text AS locale, o.status, o.plan_code,
       e.plan_code::text AS effective_plan_code, o.accepting_donations
FROM campaigns c
JOIN organizations o ON o.organization_id = c.organization_id
JOIN organization_effective_plans e ON e.organization_id = c.organization_id
WHERE c.organization_id = $1 AND c.id = $2;

-- name: CountCampaigns :one
SELECT count(*) FROM campaigns WHERE organization_id = $1;

-- name: CreateCampaign :exec
-- Idempotent on the id: a retried creation finds its row. The country's currency is joined in (Citus
-- allows no subquery in INSERT … VALUES).
INSERT INTO campaigns (organization_id, id, slug, title, description, type, channel, currency, published)
SELECT sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(slug), sqlc.arg(title), sqlc.arg(description),
       sqlc.arg(type), sqlc.arg(channel), c.currency, sqlc.arg(published)
FROM countries c WHERE c.code = sqlc.arg(country)
ON CONFLICT (organization_id, id) DO NOTHING;

-- name: UpdateCampaign :exec
UPDATE campaigns SET
    title = sqlc.arg(title), description = sqlc.arg(description), objective = sqlc.arg(objective),
    type = sqlc.arg(type), channel = sqlc.arg(channel), amounts = sqlc.arg(amounts),
    allow_one_time = sqlc.arg(allow_one_time), allow_other_amount = sqlc.arg(allow_other_amount),
    min_other_amount_minor = sqlc.narg(min_other_amount_minor), instalments = sqlc.arg(instalments),
    form_color = nullif(sqlc.arg(form_color)::text, ''), ends_at = sqlc.narg(ends_at),
    upgrade_enabled = sqlc.arg(upgrade_enabled), upgrade_percentage = sqlc.narg(upgrade_percentage)::float8,
    upgrade_period_months = sqlc.narg(upgrade_period_months),
    upgrade_min_percentage = sqlc.narg(upgrade_min_percentage)::float8,
    upgrade_max_percentage = sqlc.narg(upgrade_max_percentage)::float8, pixel_id = sqlc.arg(pixel_id),
    analytics_id = sqlc.arg(analytics_id), tag_manager_id = sqlc.arg(tag_manager_id),
    thanks_instant = sqlc.arg(thanks_instant), thanks_email_subject = sqlc.arg(thanks_email_subject),
    thanks_email = sqlc.arg(thanks_email), immediate_charge = sqlc.arg(immediate_charge), event = sqlc.narg(event),
    form_fields = sqlc.arg(form_fields), updated_at = now()
WHERE organization_id = sqlc.arg(organization_id) AND id = sqlc.arg(id);

-- name: SetCampaignCover :exec
UPDATE campaigns SET cover_key = $3, updated_at = now() WHERE organization_id = $1 AND id = $2;

-- name: SetCampaignPublished :exec
-- now is a parameter: Citus allows no now() inside CASE or COALESCE of an UPDATE.
UPDATE campaigns SET published = sqlc.arg(published),
       published_at = CASE WHEN sqlc.arg(published) THEN coalesce(published_at, sqlc.arg(now)::timestamptz) ELSE published_at END,
       updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: CountryCurrency :one
SELECT currency FROM countries WHERE code = $1;

-- name: CountCampaignVisit :exec
-- One visit more on today's row, today in the organisation's time zone.
INSERT INTO campaign_visits (organization_id, campaign_id, day, visits)
VALUES (sqlc.arg(organization_id), sqlc.arg(campaign_id), (now() AT TIME ZONE sqlc.arg(timezone)::text)::date, 1)
ON CONFLICT (organization_id, campaign_id, day) DO UPDATE SET visits = campaign_visits.visits + 1;

-- name: PurgeLeads :exec
DELETE FROM leads WHERE organization_id = $1 AND updated_at < now() - interval '90 days';

-- name: UpsertLead :exec
-- EXCLUDED.updated_at (the column default) rather than now(): Citus allows only immutable functions in DO UPDATE.
INSERT INTO leads (organization_id, id, campaign_id, email, first_name)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (organization_id, email) DO UPDATE
SET campaign_id = excluded.campaign_id,
    first_name = CASE WHEN excluded.first_name <> '' THEN excluded.first_name ELSE leads.first_name END,
    updated_at = excluded.updated_at;

-- name: DocumentTypesOfCountry :many
-- The donor document types of a country, "Otro" last.
SELECT code FROM document_types WHERE sqlc.arg(country)::text = ANY(countries) ORDER BY code = 'Otro', code;

-- name: PublicFormStamp :one
-- A digest of every row the public form is built from: the published campaign under this slug, its
-- organisation, its gateway connections and its integrated-payments processors with their rules. The
-- public read reuses its built answer while the digest is unchanged, so an edit, a publish, a
-- reconnection or a processor's rule in any process shows at once.
SELECT md5(row(c.*)::text || row(o.*)::text ||
           coalesce((SELECT string_agg(row(g.*)::text, ',' ORDER BY g.id) FROM gateway_connections g
                     WHERE g.organization_id = sqlc.arg(organization_id)), '') ||
           coalesce((SELECT string_agg(row(p.*)::text, ',' ORDER BY p.id) FROM payment_processors p
                     WHERE p.organization_id = sqlc.arg(organization_id)), '') ||
           coalesce((SELECT string_agg(row(pc.*)::text, ',' ORDER BY pc.processor_id, pc.campaign_id) FROM payment_processor_campaigns pc
                     WHERE pc.organization_id = sqlc.arg(organization_id)), ''))::text AS stamp
FROM campaigns c
JOIN organizations o ON o.organization_id = c.organization_id
WHERE c.organization_id = sqlc.arg(organization_id) AND c.id = sqlc.arg(id) AND c.slug = sqlc.arg(slug) AND c.published;
