-- name: DonationForConvert
SELECT d.id, d.status, d.recurrence, d.amount_minor, d.currency, d.payment_method_id, c.title, c.slug,
       coalesce(pm.brand, ''), coalesce(pm.last_four, ''), dn.first_name
FROM donations d
JOIN campaigns c ON c.organization_id = d.organization_id AND c.id = d.campaign_id
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN payment_methods pm ON pm.organization_id = d.organization_id AND pm.id = d.payment_method_id
WHERE d.organization_id = $1 AND d.id = $2;

-- name: IssueConvertToken
-- A one-time donation's convert-to-monthly secret, hashed with its donor ($3 secret, $4 expiry);
-- it replaces any earlier one.
UPDATE donations SET convert_token_hash = sha256(uuid_send(donor_id) || $3::bytea), convert_token_expires_at = $4
WHERE organization_id = $1 AND id = $2 AND recurrence = 0 AND status = 'active' AND payment_method_id IS NOT NULL
RETURNING id;

-- name: ConvertTokenValid
-- Whether the secret ($3) is the donation's, for its donor, and still valid at $4 (no row: unknown
-- or used).
SELECT convert_token_expires_at > $4
FROM donations
WHERE organization_id = $1 AND id = $2 AND convert_token_hash = sha256(uuid_send(donor_id) || $3::bytea);

-- name: ConvertToMonthly
-- Converts and uses the secret up in one statement: a second (or concurrent) use finds no row.
UPDATE donations SET recurrence = 1, collect_day = $3, next_charge_date = $4, status = 'active', converted_at = now(),
       updated_at = now(), convert_token_hash = NULL, convert_token_expires_at = NULL
WHERE organization_id = $1 AND id = $2 AND recurrence = 0 AND status = 'active' AND payment_method_id IS NOT NULL
  AND convert_token_hash = sha256(uuid_send(donor_id) || $5::bytea) AND convert_token_expires_at > $6
RETURNING id;

-- name: DonationReceipt
SELECT d.status, d.recurrence, d.amount_minor, d.currency, d.collect_day,
       coalesce(d.donor_snapshot->>'first_name', dn.first_name), d.campaign_id, d.items,
       coalesce(t.status, '')
FROM donations d
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
LEFT JOIN transactions t ON t.organization_id = d.organization_id AND t.id = $3
WHERE d.organization_id = $1 AND d.id = $2;

-- name: DonationSubmitted
-- What the donor submitted with the donation: extra field answers and their own data.
SELECT form_values, donor_snapshot FROM donations WHERE organization_id = $1 AND id = $2;
