-- Large-organisation seed (make seed-large, make bench). Set-based: every statement is one
-- INSERT … SELECT over generate_series, so PostgreSQL builds the rows without a round trip each.
-- The loading statements run with the dashboard rollup's triggers deferred; Rollup fills it after.
-- Row i (0-based) of a kind has a deterministic uuid, so later statements join by id range.
-- $1 is always the organisation.

-- name: Campaigns
-- $2 number of campaigns, $3 currency.
INSERT INTO campaigns (organization_id, id, slug, title, type, currency, published, published_at, created_at)
SELECT $1, ('00000000-0000-4000-a000-' || lpad(to_hex(c), 12, '0'))::uuid, 'grande-' || c, 'Campaña ' || (c + 1),
       (ARRAY['fundraise','crowdfund','custom','promoted','tickets'])[1 + c % 5], $3, true, now() - interval '5 years',
       now() - interval '5 years'
FROM generate_series(0, $2 - 1) AS c;

-- name: Donors
-- $2 first row, $3 row after the last, $4 total rows.
INSERT INTO donors (organization_id, id, email, first_name, last_name, created_at)
SELECT $1, ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'donante' || i || '@grande.test',
       (ARRAY['Ana','Luis','María','Jorge','Sofía','Pedro','Lucía','Diego'])[1 + i % 8],
       (ARRAY['Pérez','Gómez','Rodríguez','Fernández','López','Díaz','Martínez','Sosa'])[1 + (i / 8) % 8],
       now() - interval '5 years' + (i::float8 / $4) * interval '5 years'
FROM generate_series($2::bigint, $3::bigint - 1) AS i;

-- name: Donations
-- $2 first row, $3 row after the last, $4 total rows, $5 campaigns, $6 currency. Created evenly over
-- the last 5 years; 85% monthly; status: 80% active, 10% paused, 7% discarded, 2% pending, 1% rejected.
INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence, collect_day,
                       status, paused_reason, paused_since, discarded_at, discard_reason, created_at, updated_at)
SELECT $1, g.id, g.campaign, g.id, g.amount, $6, g.rec, 1 + g.i % 28,
       g.status,
       CASE WHEN g.status = 'paused' THEN (ARRAY['cc_expired','all_not_approved','by_org','donor_request_stop_debit',
            'cc_invalid_number','last_x_months_not_approved','payment_method_invalid','unknown'])[1 + (g.i / 100) % 8] END,
       CASE WHEN g.status = 'paused' THEN g.created + (now() - g.created) * (0.3 + 0.6 * random()) END,
       CASE WHEN g.status = 'discarded' THEN g.created + (now() - g.created) * (0.3 + 0.6 * random()) END,
       CASE WHEN g.status = 'discarded' AND g.i % 7 <> 0 THEN (ARRAY['donor_request','financial_reasons','duplicated',
            'unhappy_with_org','other'])[1 + (g.i / 100) % 5] END,
       g.created, g.created
FROM (
    SELECT i, ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid AS id,
           ('00000000-0000-4000-a000-' || lpad(to_hex(i % $5), 12, '0'))::uuid AS campaign,
           (1000 + (i * 7919) % 80) * 100 AS amount,
           CASE WHEN i % 20 < 17 THEN 1 ELSE 0 END::smallint AS rec,
           CASE WHEN i % 100 < 80 THEN 'active' WHEN i % 100 < 90 THEN 'paused' WHEN i % 100 < 97 THEN 'discarded'
                WHEN i % 100 < 99 THEN 'pending' ELSE 'rejected' END AS status,
           now() - interval '5 years' + (i::float8 / $4) * interval '5 years' AS created
    FROM generate_series($2::bigint, $3::bigint - 1) AS i
) g;

-- name: Transactions
-- $2 first donation id, $3 donation id after the last, $4 longest life in months. A monthly donation
-- is charged once a month from its creation, each charge its own period, for its life (uniform in
-- 1…$4 months by its id) or until it was paused, discarded or now, whichever comes first; a one-time
-- donation has one charge without period.
-- Status: 88% approved, 6% rejected, 2% refunded, 2% pending, 1% charged_back, 1% cancelled.
INSERT INTO transactions (organization_id, id, donation_id, period, attempt, amount_minor, currency, status,
                          charged_at, created_at, updated_at)
SELECT d.organization_id, ('00000000-0000-4000-9' || lpad(to_hex(k), 3, '0') || '-' || right(d.id::text, 12))::uuid, d.id,
       CASE WHEN d.recurrence = 1 THEN to_char(x.t, 'YYYY-MM') END,
       1, d.amount_minor, d.currency,
       CASE WHEN h < 88 THEN 'approved' WHEN h < 94 THEN 'rejected' WHEN h < 96 THEN 'refunded'
            WHEN h < 98 THEN 'pending' WHEN h < 99 THEN 'charged_back' ELSE 'cancelled' END,
       CASE WHEN h < 94 OR h >= 96 THEN x.t END, x.t, x.t
FROM donations d
-- A searched CASE: Citus deparses CASE d.status WHEN … for the worker as a comparison with a boolean.
CROSS JOIN LATERAL (SELECT age(CASE WHEN d.status = 'paused' THEN d.paused_since WHEN d.status = 'discarded' THEN d.discarded_at
                                    ELSE now() END, d.created_at) AS alive) a
CROSS JOIN LATERAL generate_series(0, CASE WHEN d.recurrence = 1
        THEN LEAST(abs(hashtext(d.id::text)) % $4, (extract(year FROM a.alive) * 12 + extract(month FROM a.alive))::int)
        ELSE 0 END) AS k
CROSS JOIN LATERAL (SELECT d.created_at + k * interval '1 month' AS t, abs(hashtext(d.id::text || k)) % 100 AS h) x
WHERE d.organization_id = $1 AND d.id >= $2 AND d.id < $3 AND d.status NOT IN ('pending', 'rejected');

-- name: PauseVersions
-- The version row of every current pause, and for every 20th active donation a past pause restored
-- after 3 days (never counts on the dashboard) or after 10 days (counts).
INSERT INTO donation_versions (organization_id, id, donation_id, actor, field, before, after, created_at)
SELECT d.organization_id, gen_random_uuid(), d.id, 'system', 'status', '{"status":"active"}'::jsonb,
       jsonb_build_object('status', 'paused', 'paused_reason', d.paused_reason), d.paused_since
FROM donations d
WHERE d.organization_id = $1 AND d.id >= $2 AND d.id < $3 AND d.status = 'paused'
UNION ALL
SELECT d.organization_id, gen_random_uuid(), d.id, 'system', 'status', '{"status":"active"}'::jsonb,
       '{"status":"paused","paused_reason":"cc_expired"}'::jsonb, d.created_at + interval '40 days'
FROM donations d
WHERE d.organization_id = $1 AND d.id >= $2 AND d.id < $3 AND d.status = 'active' AND d.amount_minor % 2000 = 0
  AND d.created_at < now() - interval '60 days'
UNION ALL
SELECT d.organization_id, gen_random_uuid(), d.id, 'system', 'status', '{"status":"paused","paused_reason":"cc_expired"}'::jsonb,
       '{"status":"active"}'::jsonb,
       d.created_at + interval '40 days' + CASE WHEN d.amount_minor % 4000 = 0 THEN interval '3 days' ELSE interval '10 days' END
FROM donations d
WHERE d.organization_id = $1 AND d.id >= $2 AND d.id < $3 AND d.status = 'active' AND d.amount_minor % 2000 = 0
  AND d.created_at < now() - interval '60 days';

-- name: Visits
-- $2 campaigns: one row per campaign and day over the last 5 years.
INSERT INTO campaign_visits (organization_id, campaign_id, day, visits)
SELECT $1, ('00000000-0000-4000-a000-' || lpad(to_hex(c), 12, '0'))::uuid, day::date,
       200 + abs(hashtext(c || '-' || day::date)) % 800
FROM generate_series(0, $2 - 1) AS c
CROSS JOIN generate_series((now() - interval '5 years')::date, now()::date, interval '1 day') AS day;

-- name: DeferrableIndexes
-- The non-unique indexes of the tables the seed fills: built once after the load instead of row by
-- row. Unique ones stay, so the application's constraints hold for everyone meanwhile.
SELECT c.relname, pg_get_indexdef(i.indexrelid)
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE i.indrelid IN ('donors'::regclass, 'donations'::regclass, 'transactions'::regclass, 'donation_versions'::regclass)
  AND NOT i.indisunique
ORDER BY pg_relation_size(i.indrelid) DESC, c.relname;

-- name: Rollup
SELECT dashboard_rollup_rebuild($1);

-- name: Counts
SELECT (SELECT count(*) FROM donations WHERE organization_id = $1),
       (SELECT count(*) FROM transactions WHERE organization_id = $1);
