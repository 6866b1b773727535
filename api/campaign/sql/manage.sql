-- name: CampaignByID
SELECT c.id, c.slug, c.title, c.description, c.objective, c.type, c.channel, c.currency, o.country, c.published,
       c.published_at, c.amounts, c.allow_one_time, c.allow_other_amount, c.min_other_amount_minor, c.instalments,
       coalesce(c.form_color, ''), coalesce(c.cover_key, ''), c.ends_at, c.upgrade_enabled,
       c.upgrade_percentage::float8, c.upgrade_period_months::int, c.upgrade_min_percentage::float8,
       c.upgrade_max_percentage::float8, c.pixel_id, c.analytics_id, c.tag_manager_id, c.thanks_instant,
       c.thanks_email_subject, c.thanks_email, c.immediate_charge, c.event, c.form_fields, c.created_at, c.updated_at
FROM campaigns c
JOIN organizations o ON o.organization_id = c.organization_id
WHERE c.organization_id = $1 AND c.id = $2;

-- name: ListCampaigns
SELECT c.id, c.slug, c.title, c.description, c.objective, c.type, c.channel, c.currency, o.country, c.published,
       c.published_at, c.amounts, c.allow_one_time, c.allow_other_amount, c.min_other_amount_minor, c.instalments,
       coalesce(c.form_color, ''), coalesce(c.cover_key, ''), c.ends_at, c.upgrade_enabled,
       c.upgrade_percentage::float8, c.upgrade_period_months::int, c.upgrade_min_percentage::float8,
       c.upgrade_max_percentage::float8, c.pixel_id, c.analytics_id, c.tag_manager_id, c.thanks_instant,
       c.thanks_email_subject, c.thanks_email, c.immediate_charge, c.event, c.form_fields, c.created_at, c.updated_at
FROM campaigns c
JOIN organizations o ON o.organization_id = c.organization_id
WHERE c.organization_id = $1
ORDER BY c.created_at DESC, c.id
LIMIT $2 OFFSET $3;

-- name: CountCampaigns
SELECT count(*) FROM campaigns WHERE organization_id = $1;

-- name: UpdateCampaign
UPDATE campaigns SET
    title = $3, description = $4, objective = $5, type = $6, channel = $7, amounts = $8, allow_one_time = $9,
    allow_other_amount = $10, min_other_amount_minor = $11, instalments = $12, form_color = nullif($13, ''),
    ends_at = $14, upgrade_enabled = $15, upgrade_percentage = $16, upgrade_period_months = $17,
    upgrade_min_percentage = $18, upgrade_max_percentage = $19, pixel_id = $20, analytics_id = $21,
    tag_manager_id = $22, thanks_instant = $23, thanks_email_subject = $24, thanks_email = $25,
    immediate_charge = $26, event = $27, form_fields = $28, updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: SetFormFields
UPDATE campaigns SET form_fields = $3, updated_at = now() WHERE organization_id = $1 AND id = $2;

-- name: SetCover
UPDATE campaigns SET cover_key = $3, updated_at = now() WHERE organization_id = $1 AND id = $2;

-- name: SetPublished
UPDATE campaigns SET published = $3, published_at = CASE WHEN $3 THEN coalesce(published_at, now()) ELSE published_at END,
       updated_at = now()
WHERE organization_id = $1 AND id = $2;

-- name: OrganizationPlan
SELECT plan_code, status, timezone, country, name, accepting_donations FROM organizations WHERE organization_id = $1;

-- name: CountVisit
INSERT INTO campaign_visits (organization_id, campaign_id, day, visits)
VALUES ($1, $2, (now() AT TIME ZONE $3)::date, 1)
ON CONFLICT (organization_id, campaign_id, day) DO UPDATE SET visits = campaign_visits.visits + 1;

-- name: PurgeLeads
DELETE FROM leads WHERE organization_id = $1 AND updated_at < now() - interval '90 days';

-- name: UpsertLead
INSERT INTO leads (organization_id, id, campaign_id, email, first_name)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (organization_id, email) DO UPDATE
SET campaign_id = excluded.campaign_id,
    first_name = CASE WHEN excluded.first_name <> '' THEN excluded.first_name ELSE leads.first_name END,
    updated_at = now();
