-- name: CreateCampaign
INSERT INTO campaigns (organization_id, id, slug, title, description, type, channel, currency, published)
VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT currency FROM countries WHERE code = $8), $9)
ON CONFLICT (organization_id, id) DO NOTHING;

-- name: DocumentTypes
SELECT code FROM document_types WHERE $1 = ANY(countries) ORDER BY code = 'Otro', code;
