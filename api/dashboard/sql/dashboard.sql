-- Dashboard widgets (donor spec §2 screen 5). Shared parameters: $1 organisation; $2, $3 the
-- period's first and last day in the organisation's time zone (Paused: the timestamptz of its start
-- and of the day after its end); $4 campaign (NULL: all); $5 recurrence (NULL: both, 1 monthly,
-- 0 one-time). Money, new donations and discards read the daily rollup of
-- migrations/shard/0080_dashboard_rollup.sql, so their cost is days × campaigns; visits are daily
-- rows already; pauses read the version history (a donation counts once in a period, which no sum
-- of days can tell), with the indexes of migrations/shard/0070_dashboard.sql.

-- name: Organization
SELECT timezone,
       EXISTS (SELECT 1 FROM campaigns c WHERE c.organization_id = $1) AS has_campaigns,
       COALESCE((SELECT g.step FROM guide_progress g
                 WHERE g.organization_id = $1 AND g.user_id = $2 AND g.guide_name = $3), 0) AS guide_step
FROM organizations WHERE organization_id = $1;

-- name: CampaignExists
SELECT EXISTS (SELECT 1 FROM campaigns WHERE organization_id = $1 AND id = $2);

-- name: Raised
-- Approved transactions charged in the period (created_at when charged_at is missing), per bucket
-- and currency, from the daily rollup (migrations/shard/0080_dashboard_rollup.sql). $2 first day,
-- $3 last day (inclusive), $4 campaign, $5 recurrence, $6 bucket. The handler adds the buckets up
-- for the totals.
SELECT date_trunc($6, r.day::timestamp)::date AS bucket, r.currency, sum(r.raised_minor)::bigint, sum(r.raised_count)::bigint
FROM dashboard_daily r
WHERE r.organization_id = $1 AND r.day >= $2::date AND r.day <= $3::date
  AND ($4::uuid IS NULL OR r.campaign_id = $4) AND ($5::smallint IS NULL OR r.recurrence = $5)
GROUP BY 1, 2
HAVING sum(r.raised_count) <> 0;

-- name: NewDonations
-- Donations created in the period, per bucket, from the daily rollup; pending and rejected (first
-- charge not settled or refused) are not donations yet. Parameters as Raised's.
SELECT date_trunc($6, r.day::timestamp)::date AS bucket, sum(r.new_donations)::bigint
FROM dashboard_daily r
WHERE r.organization_id = $1 AND r.day >= $2::date AND r.day <= $3::date
  AND ($4::uuid IS NULL OR r.campaign_id = $4) AND ($5::smallint IS NULL OR r.recurrence = $5)
GROUP BY 1
HAVING sum(r.new_donations) <> 0;

-- name: Visits
-- Visits per bucket: $1 organisation, $2 first day, $3 last day (inclusive), $4 campaign (NULL: all),
-- $5 bucket. Visits belong to a campaign, not to a frequency, so the frequency filter does not apply.
SELECT date_trunc($5, v.day::timestamp)::date AS bucket, sum(v.visits)::bigint
FROM campaign_visits v
WHERE v.organization_id = $1 AND v.day >= $2::date AND v.day <= $3::date
  AND ($4::uuid IS NULL OR v.campaign_id = $4)
GROUP BY 1;

-- name: Discarded
-- Donations discarded in the period, per reason (NULL: none given), from the daily rollup.
-- Parameters as Raised's.
SELECT NULLIF(r.reason, ''), sum(r.donations)::bigint
FROM dashboard_daily_discards r
WHERE r.organization_id = $1 AND r.day >= $2::date AND r.day <= $3::date
  AND ($4::uuid IS NULL OR r.campaign_id = $4) AND ($5::smallint IS NULL OR r.recurrence = $5)
GROUP BY 1
HAVING sum(r.donations) <> 0;

-- name: Paused
-- Paused donations (spec: "appear only if not resumed within 7 days"). A pause is an event at time p:
-- a version row (field 'status', after.status 'paused'), or, for a donation still paused whose pause
-- has no version row (written outside the collection workflow), its paused_since. A pause in the
-- period COUNTS when 7 days have passed since p ($6 is now) and no restore (version row with
-- before.status 'paused', after.status 'active') happened in (p, p + 7 days]. It is IN GRACE when
-- fewer than 7 days have passed and it has not been restored yet. A donation counts once, with the
-- reason of its latest pause in the period. $1, $4, $5 shared, $2 start, $3 end, $6 now. Returns: reason, counted, in_grace.
WITH versioned AS (
    -- The version rows of pauses in the period, widened by the minute the check below allows.
    SELECT v.donation_id, v.created_at AS at, v.after ->> 'paused_reason' AS reason
    FROM donation_versions v
    WHERE v.organization_id = $1 AND v.field = 'status' AND v.after ->> 'status' = 'paused'
      AND v.created_at >= $2::timestamptz - interval '1 minute' AND v.created_at < $3::timestamptz + interval '1 minute'
), pauses AS (
    SELECT v.donation_id, v.at, v.reason FROM versioned v WHERE v.at >= $2 AND v.at < $3
    UNION ALL
    -- One hash anti-join against the rows above, not an index probe per paused donation.
    SELECT d.id, d.paused_since, d.paused_reason
    FROM donations d
    WHERE d.organization_id = $1 AND d.status = 'paused' AND d.paused_since >= $2 AND d.paused_since < $3
      AND NOT EXISTS (SELECT 1 FROM versioned v WHERE v.donation_id = d.id
                      AND v.at BETWEEN d.paused_since - interval '1 minute' AND d.paused_since + interval '1 minute')
), unresumed AS (
    -- LATERAL … LIMIT 1: one index probe per pause on (organization_id, donation_id, created_at).
    SELECT p.*, (p.at + interval '7 days' <= $6) AS settled
    FROM pauses p
    LEFT JOIN LATERAL (
        SELECT 1 AS found FROM donation_versions r
        WHERE r.organization_id = $1 AND r.donation_id = p.donation_id
          AND r.field = 'status' AND r.before ->> 'status' = 'paused' AND r.after ->> 'status' = 'active'
          AND r.created_at > p.at AND r.created_at <= LEAST(p.at + interval '7 days', $6)
        LIMIT 1) restored ON true
    WHERE restored.found IS NULL
), filtered AS (
    -- Without filters (the handler plans with the actual values) no donation is read.
    SELECT DISTINCT ON (u.donation_id, u.settled) u.donation_id, u.settled, u.reason
    FROM unresumed u
    WHERE ($4::uuid IS NULL AND $5::smallint IS NULL) OR EXISTS (
        SELECT 1 FROM donations d
        WHERE d.organization_id = $1 AND d.id = u.donation_id
          AND ($4::uuid IS NULL OR d.campaign_id = $4) AND ($5::smallint IS NULL OR d.recurrence = $5))
    ORDER BY u.donation_id, u.settled, u.at DESC
)
SELECT COALESCE(reason, 'unknown'), count(*) FILTER (WHERE settled), count(*) FILTER (WHERE NOT settled)
FROM filtered f
-- a donation with a settled pause is counted, never also in grace
WHERE f.settled OR NOT EXISTS (SELECT 1 FROM filtered s WHERE s.donation_id = f.donation_id AND s.settled)
GROUP BY 1;
