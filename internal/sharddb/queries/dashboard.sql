-- Dashboard widgets (api/dashboard, donor spec §2 screen 5), all in one statement: one snapshot, so the
-- widgets agree with each other without a transaction, and one round trip, routed whole to the organisation's
-- shard. Parameters: the organisation; first_day, last_day: the period's days in the organisation's time zone
-- (start and end_at: the timestamptz of its first day and of the day after its last, in the time zone
-- the handler read, which the statement answers so the handler can tell it is still the organisation's);
-- campaign (NULL: all); recurrence (NULL: both, 1 monthly, 0 one-time); agency (NULL: every channel; else the
-- donations that agency acquired, a key of the rollup since migrations/shard/0410_dashboard_agency.sql);
-- bucket: 'day' or 'month'. Money, new donations and discards read the daily rollup of
-- migrations/shard/0080_dashboard_rollup.sql, so their cost is days × campaigns; visits are daily rows
-- already; pauses read one pause fact per pause in the period (migrations/shard/0370_dashboard_pauses.sql: a
-- donation counts once in a period, which no sum of days can tell). The handler runs it as a prepared
-- statement: on Citus the coordinator's cached plan only routes it, and the shard plans it with its values.

-- name: DashboardTimezone :one
SELECT timezone FROM organizations WHERE organization_id = $1;

-- name: Dashboard :many
-- One row per widget fact; which columns mean what depends on widget (bucket is the period's first day where
-- the widget has none):
--   daily       bucket, label = currency, n1 raised_minor, n2 raised_count, n3 new_donations,
--               n4 processor_fees_minor. Per bucket and currency, from the daily rollup: approved transactions
--               charged in the period (created_at when charged_at is missing) and donations created in it
--               (pending and rejected ones, whose first charge is not settled or was refused, are not
--               donations yet), and the integrated payments processors' fees of those transactions (0390).
--   visits      bucket, n1 visits. Visits belong to a campaign, not to a frequency, so the frequency filter
--               does not apply; nor to an agency (its donors sign up on the street, not on the form): none
--               with one.
--   discarded   label = reason ('': none given), n1 donations discarded in the period, from the daily rollup.
--   paused      label = reason, n1 counted, n2 in grace (see the paused CTE).
--   recovered   n1 donations recovered in the period (see the recovered CTE).
--   organization  label = time zone, n1 has campaigns (0/1), n2 the user's step of the campaign guide,
--               n3 the campaign filter names a campaign of the organisation (0/1), n4 the agency filter
--               names an agency of it, a discarded one included (0/1); both 1 without the filter.
WITH daily AS (
    SELECT date_trunc(sqlc.arg(bucket)::text, r.day::timestamp)::date AS bucket, r.currency,
           sum(r.raised_minor)::bigint AS raised_minor, sum(r.raised_count)::bigint AS raised_count,
           sum(r.new_donations)::bigint AS new_donations, sum(r.processor_fees_minor)::bigint AS processor_fees_minor
    FROM dashboard_daily r
    WHERE r.organization_id = sqlc.arg(organization_id) AND r.day >= sqlc.arg(first_day)::date AND r.day <= sqlc.arg(last_day)::date
      AND (sqlc.narg(campaign)::uuid IS NULL OR r.campaign_id = sqlc.narg(campaign)::uuid)
      AND (sqlc.narg(recurrence)::smallint IS NULL OR r.recurrence = sqlc.narg(recurrence)::smallint)
      AND (sqlc.narg(agency)::uuid IS NULL OR r.agency_id = sqlc.narg(agency)::uuid)
    GROUP BY 1, 2
    HAVING sum(r.raised_count) <> 0 OR sum(r.new_donations) <> 0
), visits AS (
    SELECT date_trunc(sqlc.arg(bucket)::text, v.day::timestamp)::date AS bucket, sum(v.visits)::bigint AS visits
    FROM campaign_visits v
    WHERE v.organization_id = sqlc.arg(organization_id) AND v.day >= sqlc.arg(first_day)::date AND v.day <= sqlc.arg(last_day)::date
      AND (sqlc.narg(campaign)::uuid IS NULL OR v.campaign_id = sqlc.narg(campaign)::uuid)
      AND sqlc.narg(agency)::uuid IS NULL
    GROUP BY 1
), discarded AS (
    SELECT r.reason, sum(r.donations)::bigint AS donations
    FROM dashboard_daily_discards r
    WHERE r.organization_id = sqlc.arg(organization_id) AND r.day >= sqlc.arg(first_day)::date AND r.day <= sqlc.arg(last_day)::date
      AND (sqlc.narg(campaign)::uuid IS NULL OR r.campaign_id = sqlc.narg(campaign)::uuid)
      AND (sqlc.narg(recurrence)::smallint IS NULL OR r.recurrence = sqlc.narg(recurrence)::smallint)
      AND (sqlc.narg(agency)::uuid IS NULL OR r.agency_id = sqlc.narg(agency)::uuid)
    GROUP BY 1
    HAVING sum(r.donations) <> 0
), pauses AS (
    -- Paused donations (spec: "appear only if not resumed within 7 days"). A pause is an event at time p:
    -- a pause fact (dashboard_pauses, one per pause version row, with its first restore), or, for a
    -- donation still paused whose pause has no version row (written outside the collection workflow), its
    -- paused_since. A pause in the period COUNTS when 7 days have passed since p by now and it was not
    -- restored in (p, p + 7 days]. It is IN GRACE when fewer than 7 days have passed and it has not been
    -- restored yet. A donation counts once, with the reason of its latest pause in the period. The facts
    -- are read index-only over the period; no history is scanned.
    SELECT p.donation_id, p.paused_at AS at, p.reason, p.resumed_at
    FROM dashboard_pauses p
    WHERE p.organization_id = sqlc.arg(organization_id) AND p.paused_at >= sqlc.arg(start)::timestamptz AND p.paused_at < sqlc.arg(end_at)::timestamptz
    UNION ALL
    SELECT d.id, d.paused_since, d.paused_reason, NULL
    FROM donations d
    WHERE d.organization_id = sqlc.arg(organization_id) AND d.status = 'paused' AND d.paused_since >= sqlc.arg(start)::timestamptz AND d.paused_since < sqlc.arg(end_at)::timestamptz
      AND NOT EXISTS (SELECT 1 FROM dashboard_pauses v WHERE v.organization_id = sqlc.arg(organization_id) AND v.donation_id = d.id
                      AND v.paused_at BETWEEN d.paused_since - interval '1 minute' AND d.paused_since + interval '1 minute')
), unresumed AS (
    SELECT p.donation_id, p.at, p.reason, (p.at + interval '7 days' <= sqlc.arg(now)::timestamptz) AS settled
    FROM pauses p
    WHERE p.resumed_at IS NULL OR p.resumed_at > LEAST(p.at + interval '7 days', sqlc.arg(now)::timestamptz)
), filtered AS (
    -- Without filters (the handler plans with the actual values) no donation is read.
    SELECT DISTINCT ON (u.donation_id, u.settled) u.donation_id, u.settled, u.reason
    FROM unresumed u
    WHERE (sqlc.narg(campaign)::uuid IS NULL AND sqlc.narg(recurrence)::smallint IS NULL AND sqlc.narg(agency)::uuid IS NULL) OR EXISTS (
        SELECT 1 FROM donations d
        WHERE d.organization_id = sqlc.arg(organization_id) AND d.id = u.donation_id
          AND (sqlc.narg(campaign)::uuid IS NULL OR d.campaign_id = sqlc.narg(campaign)::uuid) AND (sqlc.narg(recurrence)::smallint IS NULL OR d.recurrence = sqlc.narg(recurrence)::smallint)
          AND (sqlc.narg(agency)::uuid IS NULL OR d.agency_id = sqlc.narg(agency)::uuid))
    ORDER BY u.donation_id, u.settled, u.at DESC
), paused AS (
    SELECT COALESCE(reason, 'unknown')::text AS reason, count(*) FILTER (WHERE settled) AS counted,
           count(*) FILTER (WHERE NOT settled) AS in_grace
    FROM filtered f
    -- a donation with a settled pause is counted, never also in grace
    WHERE f.settled OR NOT EXISTS (SELECT 1 FROM filtered s WHERE s.donation_id = f.donation_id AND s.settled)
    GROUP BY 1
), recovered AS (
    -- Donations recovered in the period (issue 20): a charge was declined, the donor gave a new card in
    -- the donor portal (a payment_method version signed 'donor:…' in the period), and a charge was
    -- approved after it.
    SELECT count(DISTINCT v.donation_id)::bigint AS recovered
    FROM donation_versions v
    JOIN donations d ON d.organization_id = sqlc.arg(organization_id) AND d.id = v.donation_id
    WHERE v.organization_id = sqlc.arg(organization_id) AND v.field = 'payment_method' AND v.actor LIKE 'donor:%'
      AND v.created_at >= sqlc.arg(start)::timestamptz AND v.created_at < sqlc.arg(end_at)::timestamptz
      AND (sqlc.narg(campaign)::uuid IS NULL OR d.campaign_id = sqlc.narg(campaign)::uuid)
      AND (sqlc.narg(recurrence)::smallint IS NULL OR d.recurrence = sqlc.narg(recurrence)::smallint)
      AND (sqlc.narg(agency)::uuid IS NULL OR d.agency_id = sqlc.narg(agency)::uuid)
      AND EXISTS (SELECT 1 FROM transactions t WHERE t.organization_id = sqlc.arg(organization_id) AND t.donation_id = v.donation_id
                  AND t.status = 'rejected' AND t.created_at < v.created_at)
      AND EXISTS (SELECT 1 FROM transactions t WHERE t.organization_id = sqlc.arg(organization_id) AND t.donation_id = v.donation_id
                  AND t.status = 'approved' AND t.created_at > v.created_at)
), org AS (
    SELECT o.timezone,
           EXISTS (SELECT 1 FROM campaigns c WHERE c.organization_id = sqlc.arg(organization_id)) AS has_campaigns,
           COALESCE((SELECT g.step FROM guide_progress g
                     WHERE g.organization_id = sqlc.arg(organization_id) AND g.user_id = sqlc.arg(user_id)
                       AND g.guide_name = sqlc.arg(guide_name)), 0)::bigint AS guide_step,
           (sqlc.narg(campaign)::uuid IS NULL OR EXISTS (SELECT 1 FROM campaigns c
                     WHERE c.organization_id = sqlc.arg(organization_id) AND c.id = sqlc.narg(campaign)::uuid)) AS campaign_known,
           (sqlc.narg(agency)::uuid IS NULL OR EXISTS (SELECT 1 FROM agencies a
                     WHERE a.organization_id = sqlc.arg(organization_id) AND a.id = sqlc.narg(agency)::uuid)) AS agency_known
    FROM organizations o WHERE o.organization_id = sqlc.arg(organization_id)
)
SELECT 'daily'::text AS widget, bucket, currency::text AS label, raised_minor AS n1, raised_count AS n2, new_donations AS n3,
       processor_fees_minor AS n4 FROM daily
UNION ALL SELECT 'visits', bucket, '', visits, 0, 0, 0 FROM visits
UNION ALL SELECT 'discarded', sqlc.arg(first_day)::date, reason, donations, 0, 0, 0 FROM discarded
UNION ALL SELECT 'paused', sqlc.arg(first_day)::date, reason, counted, in_grace, 0, 0 FROM paused
UNION ALL SELECT 'recovered', sqlc.arg(first_day)::date, '', recovered, 0, 0, 0 FROM recovered
UNION ALL SELECT 'organization', sqlc.arg(first_day)::date, timezone, has_campaigns::int::bigint, guide_step,
       campaign_known::int::bigint, agency_known::int::bigint FROM org;
