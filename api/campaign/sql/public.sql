-- name: PublicCampaign
SELECT c.id, c.slug, c.title, c.description, c.type, c.currency, o.name, o.country
FROM campaigns c
JOIN organizations o ON o.organization_id = c.organization_id
WHERE c.organization_id = $1 AND c.id = $2 AND c.published;

-- name: CreateCampaign
INSERT INTO campaigns (organization_id, id, slug, title, description, type, channel, currency, published)
VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT currency FROM countries WHERE code = $8), $9)
ON CONFLICT (organization_id, id) DO NOTHING;

-- name: DocumentTypes
SELECT code FROM document_types WHERE $1 = ANY(countries) ORDER BY code = 'Otro', code;
