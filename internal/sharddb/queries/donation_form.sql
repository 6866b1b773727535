-- name: FormDonationByKey :one
-- The donation a form submission's idempotency key made. The first name is the one its submission gave (the donor's
-- record may say otherwise): every writer of a donation with a key keeps its submission's donor (InsertFormDonation's
-- donor_snapshot). One table, so Citus keeps the statement's plan; a join to donors was planned again every time.
SELECT d.id, d.status, d.recurrence, d.amount_minor, d.currency, d.collect_day, d.donor_id,
       coalesce(d.donor_snapshot->>'first_name', '')::text AS first_name, d.campaign_id, d.payment_method_id
FROM donations d
WHERE d.organization_id = $1 AND d.idempotency_key = $2;

-- name: LinkFormDonor :one
-- The donor with the e-mail, in one statement Citus runs whole on the organisation's worker (migrations/shard/0600):
-- a new one from the form's submission, with the columns its related fields answered (fields: column → value; null:
-- none), or the existing one left as it is: only the manage area changes a donor's record; the submission's data
-- stays with its donation.
SELECT donor_link(sqlc.arg(organization_id)::uuid, sqlc.arg(id)::uuid, sqlc.arg(email)::text, sqlc.arg(first_name)::text,
    sqlc.arg(last_name)::text, sqlc.arg(uid_type)::text, sqlc.arg(uid_number)::text, sqlc.narg(fields)::jsonb)::uuid AS id;

-- name: LinkFormDonorCard :one
-- LinkFormDonor and UpsertPaymentMethod in one delegated call (migrations/shard/0660): the donor with the e-mail and
-- the card (an object of UpsertPaymentMethod's columns; null: none). Answers {donor_id, payment_method_id}.
SELECT donor_card_link(sqlc.arg(organization_id)::uuid, sqlc.arg(id)::uuid, sqlc.arg(email)::text,
    sqlc.arg(first_name)::text, sqlc.arg(last_name)::text, sqlc.arg(uid_type)::text, sqlc.arg(uid_number)::text,
    sqlc.narg(fields)::jsonb, sqlc.narg(card)::jsonb)::jsonb AS linked;

-- name: UpsertPaymentMethod :one
-- A card saved at the gateway (the form's or a new one from the manage area), once per gateway customer and card.
INSERT INTO payment_methods (organization_id, id, donor_id, gateway, customer_id, card_id, brand, bin, last_four,
                             expiry_month, expiry_year, holder_name, holder_id_type, holder_id_number, donor_is_cardholder)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(donor_id), sqlc.arg(gateway), sqlc.arg(customer_id),
        sqlc.arg(card_id), sqlc.arg(brand), nullif(sqlc.arg(bin)::text, ''), sqlc.arg(last_four), sqlc.arg(expiry_month),
        sqlc.arg(expiry_year), sqlc.arg(holder_name), sqlc.arg(holder_id_type), sqlc.arg(holder_id_number),
        sqlc.arg(donor_is_cardholder))
ON CONFLICT (organization_id, gateway, customer_id, card_id) DO UPDATE
SET expiry_month = excluded.expiry_month, expiry_year = excluded.expiry_year, holder_name = excluded.holder_name,
    holder_id_type = excluded.holder_id_type, holder_id_number = excluded.holder_id_number,
    donor_is_cardholder = excluded.donor_is_cardholder
RETURNING id;

-- name: FormSavedCard :one
SELECT customer_id, card_id, brand, gateway FROM payment_methods WHERE organization_id = $1 AND id = $2;

-- name: InsertFormDonation :one
-- A form submission's (or a synced agency sign-up's, with its agency and agent) donation, once per
-- idempotency key (collect_day NULL: the last day of the month), answered as FormDonationByKey reads it (no row: a
-- concurrent twin's has the key, to read by it). internal/newdonation writes it. A one-time
-- donation's convert-to-monthly secret is stored hashed with its donor as IssueConvertToken does (NULL: none),
-- so an approval need not write it after (issue 19); ConvertToMonthly takes it only once the donation is active.
-- first_charge_open: the first-charge sweep guards it until its writer says it is settled (firstcharge.Close).
INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence, collect_day,
                       status, payment_method_id, idempotency_key, items, upgrade_opt_in, instalments, form_values,
                       donor_snapshot, agency_id, acquired_by, convert_token_hash, convert_token_expires_at, first_charge_open)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(campaign_id), sqlc.arg(donor_id), sqlc.arg(amount_minor),
        sqlc.arg(currency), sqlc.arg(recurrence), sqlc.narg(collect_day), 'pending', sqlc.arg(payment_method_id),
        sqlc.arg(idempotency_key), sqlc.arg(items), sqlc.arg(upgrade_opt_in), sqlc.arg(instalments), sqlc.arg(form_values),
        sqlc.arg(donor_snapshot), sqlc.narg(agency_id), sqlc.narg(acquired_by),
        sha256(uuid_send(sqlc.arg(donor_id)::uuid) || sqlc.narg(convert_secret)::bytea), sqlc.narg(convert_expires_at)::timestamptz,
        sqlc.arg(first_charge_open))
ON CONFLICT (organization_id, idempotency_key) DO NOTHING
RETURNING id, status, recurrence, amount_minor, currency, collect_day, donor_id,
          coalesce(donor_snapshot->>'first_name', '')::text AS first_name, campaign_id, payment_method_id;

-- name: InsertFirstTransaction :exec
-- A donation's first transaction: pending until the form charges it, or planned (a monthly donation
-- charged on its collect day by collection).
INSERT INTO transactions (organization_id, id, donation_id, period, amount_minor, currency, status, attempt, payment_method_id)
VALUES (sqlc.arg(organization_id), sqlc.arg(id), sqlc.arg(donation_id), sqlc.narg(period), sqlc.arg(amount_minor),
        sqlc.arg(currency), sqlc.arg(status), 1, sqlc.arg(payment_method_id))
ON CONFLICT (organization_id, id) DO NOTHING;

-- name: QueueNewDonation :exec
-- What a written donation queues, in one statement Citus runs whole on the organisation's worker
-- (migrations/shard/0600): the CRM changes of its donor and of itself, its donation.created event (event_id null:
-- none) and its first transaction, pending until the form charges it or planned (InsertFirstTransaction's row).
SELECT donation_queue(sqlc.arg(organization_id)::uuid, sqlc.arg(donor_id)::uuid, sqlc.arg(donation_id)::uuid,
    sqlc.narg(event_id)::uuid, sqlc.narg(event_type)::text, sqlc.narg(event_body)::jsonb, sqlc.arg(transaction_id)::uuid,
    sqlc.narg(period)::text, sqlc.arg(amount_minor)::bigint, sqlc.arg(currency)::text, sqlc.arg(status)::text,
    sqlc.narg(payment_method_id)::uuid);

-- name: LockFormCampaign :one
-- The campaign's row lock serialises concurrent ticket buyers until commit.
SELECT event FROM campaigns WHERE organization_id = $1 AND id = $2 FOR UPDATE;

-- name: FormTicketsSold :one
-- Tickets of one option held by the campaign's donations, other than the submission being written
-- (its key); refused first charges free their tickets.
SELECT coalesce(sum((i->>'quantity')::int), 0)::int AS sold
FROM donations d CROSS JOIN LATERAL jsonb_array_elements(d.items) i
WHERE d.organization_id = sqlc.arg(organization_id) AND d.campaign_id = sqlc.arg(campaign_id) AND d.status <> 'rejected'
  AND d.idempotency_key IS DISTINCT FROM sqlc.arg(idempotency_key)::text AND i->>'item_name' = sqlc.arg(item_name)::text;
