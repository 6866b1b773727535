-- Processor fees in the dashboard rollup (issue #13): each dashboard_daily row also sums the integrated
-- payments processors' fees (transaction_processor_fees, 0340) of its approved transactions, so the
-- dashboard shows what the money raised owed the processors as the transactions summary does.
-- charge.Record writes the fee inside the rollup's write (sharddb.WithRollup), so the writers'
-- difference (dashboard_rollup_contribution before and after, dashboard_rollup_add) carries it; the
-- definitions below are 0330's with the fee added, and dashboard_rollup_rebuild is 0370's with it.

ALTER TABLE dashboard_daily ADD COLUMN processor_fees_minor bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION dashboard_rollup_contribution(org uuid, ids uuid[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    tz text;
    raised jsonb;
    added jsonb;
    discarded jsonb;
BEGIN
    SELECT timezone INTO tz FROM organizations WHERE organization_id = org;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', currency, 'raised_minor', raised_minor, 'raised_count', raised_count, 'new_donations', 0, 'discards', 0,
               'processor_fees_minor', processor_fees_minor))
    INTO raised
    FROM (SELECT (COALESCE(t.charged_at, t.created_at) AT TIME ZONE tz)::date AS day, d.campaign_id, d.recurrence, t.currency,
                 sum(t.amount_minor) AS raised_minor, count(*) AS raised_count,
                 COALESCE(sum(f.amount_minor), 0) AS processor_fees_minor
          FROM transactions t JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
          LEFT JOIN transaction_processor_fees f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
          WHERE t.organization_id = org AND d.organization_id = org AND t.donation_id = ANY(ids)
            AND t.status = 'approved'
          GROUP BY 1, 2, 3, 4) r;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', currency, 'raised_minor', 0, 'raised_count', 0, 'new_donations', n, 'discards', 0, 'processor_fees_minor', 0))
    INTO added
    FROM (SELECT (created_at AT TIME ZONE tz)::date AS day, campaign_id, recurrence, currency, count(*) AS n
          FROM donations
          WHERE organization_id = org AND id = ANY(ids) AND status NOT IN ('pending', 'rejected')
          GROUP BY 1, 2, 3, 4) n;
    SELECT jsonb_agg(jsonb_build_object('discard', true, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', reason, 'raised_minor', 0, 'raised_count', 0, 'new_donations', 0, 'discards', n, 'processor_fees_minor', 0))
    INTO discarded
    FROM (SELECT (discarded_at AT TIME ZONE tz)::date AS day, campaign_id, recurrence, COALESCE(discard_reason, '') AS reason,
                 count(*) AS n
          FROM donations
          WHERE organization_id = org AND id = ANY(ids) AND discarded_at IS NOT NULL
          GROUP BY 1, 2, 3, 4) x;
    RETURN COALESCE(raised, '[]') || COALESCE(added, '[]') || COALESCE(discarded, '[]');
END $$;

-- A contribution read before this migration has no processor_fees_minor: it counts as 0.
CREATE OR REPLACE FUNCTION dashboard_rollup_add(org uuid, ids uuid[], before jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    after jsonb := dashboard_rollup_contribution(org, ids);
    r record;
BEGIN
    FOR r IN
        SELECT c.discard, c.day, c.campaign_id, c.recurrence, c.label, sum(c.sign * c.raised_minor) AS raised_minor,
               sum(c.sign * c.raised_count) AS raised_count, sum(c.sign * c.new_donations) AS new_donations,
               sum(c.sign * c.discards) AS discards, COALESCE(sum(c.sign * c.processor_fees_minor), 0) AS processor_fees_minor
        FROM (SELECT 1 AS sign, * FROM jsonb_to_recordset(after) AS a(discard boolean, day date, campaign_id uuid,
                  recurrence smallint, label text, raised_minor bigint, raised_count bigint, new_donations bigint, discards bigint,
                  processor_fees_minor bigint)
              UNION ALL
              SELECT -1, * FROM jsonb_to_recordset(before) AS b(discard boolean, day date, campaign_id uuid,
                  recurrence smallint, label text, raised_minor bigint, raised_count bigint, new_donations bigint, discards bigint,
                  processor_fees_minor bigint)) c
        GROUP BY 1, 2, 3, 4, 5
        HAVING sum(c.sign * c.raised_minor) <> 0 OR sum(c.sign * c.raised_count) <> 0
            OR sum(c.sign * c.new_donations) <> 0 OR sum(c.sign * c.discards) <> 0
            OR COALESCE(sum(c.sign * c.processor_fees_minor), 0) <> 0
        ORDER BY 1, 2, 3, 4, 5
    LOOP
        IF r.discard THEN
            INSERT INTO dashboard_daily_discards AS x (organization_id, day, campaign_id, recurrence, reason, donations)
            VALUES (org, r.day, r.campaign_id, r.recurrence, r.label, r.discards)
            ON CONFLICT (organization_id, day, campaign_id, recurrence, reason) DO UPDATE
            SET donations = x.donations + EXCLUDED.donations;
        ELSE
            INSERT INTO dashboard_daily AS x (organization_id, day, campaign_id, recurrence, currency, raised_minor, raised_count,
                                              new_donations, processor_fees_minor)
            VALUES (org, r.day, r.campaign_id, r.recurrence, r.label, r.raised_minor, r.raised_count, r.new_donations,
                    r.processor_fees_minor)
            ON CONFLICT (organization_id, day, campaign_id, recurrence, currency) DO UPDATE
            SET raised_minor = x.raised_minor + EXCLUDED.raised_minor, raised_count = x.raised_count + EXCLUDED.raised_count,
                new_donations = x.new_donations + EXCLUDED.new_donations,
                processor_fees_minor = x.processor_fees_minor + EXCLUDED.processor_fees_minor;
        END IF;
    END LOOP;
END $$;

-- Adds the organisation's processor fees of approved transactions to its rollup rows (whose raised
-- rows exist already: a fee is of an approved transaction).
CREATE FUNCTION dashboard_fees_add(org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($q$
        INSERT INTO dashboard_daily AS r (organization_id, day, campaign_id, recurrence, currency, processor_fees_minor)
        SELECT t.organization_id, (COALESCE(t.charged_at, t.created_at) AT TIME ZONE o.timezone)::date, d.campaign_id,
               d.recurrence, t.currency, sum(f.amount_minor)
        FROM transactions t
        JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
        JOIN transaction_processor_fees f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
        JOIN organizations o ON o.organization_id = t.organization_id
        WHERE t.organization_id = %L AND d.organization_id = %L AND f.organization_id = %L AND o.organization_id = %L
          AND t.status = 'approved'
        GROUP BY 1, 2, 3, 4, 5
        ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (organization_id, day, campaign_id, recurrence, currency) DO UPDATE
        SET processor_fees_minor = r.processor_fees_minor + EXCLUDED.processor_fees_minor
    $q$, org, org, org, org);
END $$;

-- dashboard_rollup_rebuild(org): 0370's, and the processor fees.
CREATE OR REPLACE FUNCTION dashboard_rollup_rebuild(org uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    src text;
BEGIN
    DELETE FROM dashboard_daily WHERE organization_id = org;
    DELETE FROM dashboard_daily_discards WHERE organization_id = org;
    EXECUTE dashboard_raised_upsert(format($q$
        SELECT 1 AS sign, t.organization_id, d.campaign_id, d.recurrence, t.currency,
               COALESCE(t.charged_at, t.created_at) AS at, t.amount_minor
        FROM transactions t JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
        WHERE t.organization_id = %L AND t.status = 'approved'
    $q$, org));
    src := format($q$
        SELECT 1 AS sign, organization_id, campaign_id, recurrence, currency, created_at, status, discarded_at, discard_reason
        FROM donations WHERE organization_id = %L
    $q$, org);
    EXECUTE dashboard_new_upsert(src);
    EXECUTE dashboard_discards_upsert(src);
    PERFORM dashboard_fees_add(org);
    PERFORM dashboard_pauses_rebuild(org);
END $$;

-- The fees already recorded (none on a fresh database), one organisation at a time.
DO $$
DECLARE
    org uuid;
BEGIN
    FOR org IN SELECT organization_id FROM organizations LOOP
        PERFORM dashboard_fees_add(org);
    END LOOP;
END $$;
