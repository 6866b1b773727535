-- name: DonationByKey
-- The first name is the one its submission gave (the donor's record may say otherwise).
SELECT d.id, d.status, d.recurrence, d.amount_minor, d.currency, d.collect_day, d.donor_id,
       coalesce(d.donor_snapshot->>'first_name', dn.first_name), d.campaign_id, d.payment_method_id
FROM donations d
JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
WHERE d.organization_id = $1 AND d.idempotency_key = $2;

-- name: InsertDonor
-- A new donor, from the form's submission. An existing donor (same e-mail) is left as it is: only
-- the manage area changes a donor's record; the submission's data stays with its donation.
INSERT INTO donors (organization_id, id, email, first_name, last_name, uid_type, uid_number)
VALUES ($1, $2, $3, $4, $5, nullif($6, ''), nullif($7, ''))
ON CONFLICT (organization_id, email) DO NOTHING
RETURNING id;

-- name: DonorByEmail
SELECT id FROM donors WHERE organization_id = $1 AND email = $2;

-- name: SetDonorFields
-- A new donor's columns the form's related fields answered ($3: column → value); the others stay.
UPDATE donors
SET phone = coalesce(f->>'phone', phone), cellphone = coalesce(f->>'cellphone', cellphone),
    street = coalesce(f->>'street', street), city = coalesce(f->>'city', city), state = coalesce(f->>'state', state),
    zipcode = coalesce(f->>'zipcode', zipcode), gender = coalesce(f->>'gender', gender), updated_at = now()
FROM (SELECT $3::jsonb AS f) answers
WHERE organization_id = $1 AND id = $2;

-- name: UpsertPaymentMethod
INSERT INTO payment_methods (organization_id, id, donor_id, gateway, customer_id, card_id, brand, bin, last_four,
                             expiry_month, expiry_year, holder_name, holder_id_type, holder_id_number, donor_is_cardholder)
VALUES ($1, $2, $3, $4, $5, $6, $7, nullif($8, ''), $9, $10, $11, $12, $13, $14, $15)
ON CONFLICT (organization_id, gateway, customer_id, card_id) DO UPDATE
SET expiry_month = excluded.expiry_month, expiry_year = excluded.expiry_year, holder_name = excluded.holder_name,
    holder_id_type = excluded.holder_id_type, holder_id_number = excluded.holder_id_number,
    donor_is_cardholder = excluded.donor_is_cardholder
RETURNING id;

-- name: InsertDonation
INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence, collect_day,
                       status, payment_method_id, idempotency_key, items, upgrade_opt_in, instalments, form_values,
                       donor_snapshot)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10, $11, $12, $13, $14, $15)
ON CONFLICT (organization_id, idempotency_key) DO NOTHING;

-- name: InsertFirstTransaction
INSERT INTO transactions (organization_id, id, donation_id, period, amount_minor, currency, status, attempt, payment_method_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8)
ON CONFLICT (organization_id, id) DO NOTHING;

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

-- name: LockCampaign
SELECT event FROM campaigns WHERE organization_id = $1 AND id = $2 FOR UPDATE;

-- name: TicketsSold
-- Tickets of one option held by the campaign's donations, other than the submission being written
-- (its key); refused first charges free their tickets.
SELECT coalesce(sum((i->>'quantity')::int), 0)
FROM donations d CROSS JOIN LATERAL jsonb_array_elements(d.items) i
WHERE d.organization_id = $1 AND d.campaign_id = $2 AND d.status <> 'rejected'
  AND d.idempotency_key IS DISTINCT FROM $3 AND i->>'item_name' = $4;

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
