-- The dashboard's agency filter (issue 15): the daily rollup gains the agency that acquired a donation
-- as one more key, so a filtered dashboard reads days × campaigns × agencies rollup rows, exact like the
-- unfiltered one, instead of every donation and transaction of the agency. A donation no agency acquired
-- counts under the nil uuid (a key column cannot be NULL). A donation's agency_id is set when its
-- acquisition syncs and never changes; if it did, the writers' take-out-and-put-back
-- (dashboard_rollup_contribution before, dashboard_rollup_add after) would move its rows along, as they
-- do for a campaign change.

ALTER TABLE dashboard_daily ADD COLUMN agency_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';
ALTER TABLE dashboard_daily DROP CONSTRAINT dashboard_daily_pkey;
ALTER TABLE dashboard_daily ADD PRIMARY KEY (organization_id, day, campaign_id, recurrence, currency, agency_id);
ALTER TABLE dashboard_daily_discards ADD COLUMN agency_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';
ALTER TABLE dashboard_daily_discards DROP CONSTRAINT dashboard_daily_discards_pkey;
ALTER TABLE dashboard_daily_discards ADD PRIMARY KEY (organization_id, day, campaign_id, recurrence, reason, agency_id);

-- 0390's functions (0330's with the processor fees) with the agency in every row ({…, agency_id}) and in the
-- key order.
CREATE OR REPLACE FUNCTION dashboard_rollup_contribution(org uuid, ids uuid[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    tz text;
    raised jsonb;
    added jsonb;
    discarded jsonb;
BEGIN
    SELECT timezone INTO tz FROM organizations WHERE organization_id = org;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', currency, 'agency_id', agency_id, 'raised_minor', raised_minor, 'raised_count', raised_count,
               'new_donations', 0, 'discards', 0, 'processor_fees_minor', processor_fees_minor))
    INTO raised
    FROM (SELECT (COALESCE(t.charged_at, t.created_at) AT TIME ZONE tz)::date AS day, d.campaign_id, d.recurrence, t.currency,
                 COALESCE(d.agency_id, '00000000-0000-0000-0000-000000000000') AS agency_id,
                 sum(t.amount_minor) AS raised_minor, count(*) AS raised_count,
                 COALESCE(sum(f.amount_minor), 0) AS processor_fees_minor
          FROM transactions t JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
          LEFT JOIN transaction_processor_fees f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
          WHERE t.organization_id = org AND d.organization_id = org AND t.donation_id = ANY(ids)
            AND t.status = 'approved'
          GROUP BY 1, 2, 3, 4, 5) r;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', currency, 'agency_id', agency_id, 'raised_minor', 0, 'raised_count', 0, 'new_donations', n, 'discards', 0,
               'processor_fees_minor', 0))
    INTO added
    FROM (SELECT (created_at AT TIME ZONE tz)::date AS day, campaign_id, recurrence, currency,
                 COALESCE(agency_id, '00000000-0000-0000-0000-000000000000') AS agency_id, count(*) AS n
          FROM donations
          WHERE organization_id = org AND id = ANY(ids) AND status NOT IN ('pending', 'rejected')
          GROUP BY 1, 2, 3, 4, 5) n;
    SELECT jsonb_agg(jsonb_build_object('discard', true, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', reason, 'agency_id', agency_id, 'raised_minor', 0, 'raised_count', 0, 'new_donations', 0, 'discards', n,
               'processor_fees_minor', 0))
    INTO discarded
    FROM (SELECT (discarded_at AT TIME ZONE tz)::date AS day, campaign_id, recurrence, COALESCE(discard_reason, '') AS reason,
                 COALESCE(agency_id, '00000000-0000-0000-0000-000000000000') AS agency_id, count(*) AS n
          FROM donations
          WHERE organization_id = org AND id = ANY(ids) AND discarded_at IS NOT NULL
          GROUP BY 1, 2, 3, 4, 5) x;
    RETURN COALESCE(raised, '[]') || COALESCE(added, '[]') || COALESCE(discarded, '[]');
END $$;

-- Before this migration a contribution had no agency_id: such a row (a writer mid-flight while it ran)
-- is the nil agency's, as every rollup row was; one from before 0390 has no processor_fees_minor (0).
CREATE OR REPLACE FUNCTION dashboard_rollup_add(org uuid, ids uuid[], before jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    after jsonb := dashboard_rollup_contribution(org, ids);
    r record;
BEGIN
    FOR r IN
        SELECT c.discard, c.day, c.campaign_id, c.recurrence, c.label, c.agency_id, sum(c.sign * c.raised_minor) AS raised_minor,
               sum(c.sign * c.raised_count) AS raised_count, sum(c.sign * c.new_donations) AS new_donations,
               sum(c.sign * c.discards) AS discards, sum(c.sign * c.processor_fees_minor) AS processor_fees_minor
        FROM (SELECT 1 AS sign, a.discard, a.day, a.campaign_id, a.recurrence, a.label,
                     COALESCE(a.agency_id, '00000000-0000-0000-0000-000000000000') AS agency_id,
                     a.raised_minor, a.raised_count, a.new_donations, a.discards,
                     COALESCE(a.processor_fees_minor, 0) AS processor_fees_minor
              FROM jsonb_to_recordset(after) AS a(discard boolean, day date, campaign_id uuid, recurrence smallint, label text,
                  agency_id uuid, raised_minor bigint, raised_count bigint, new_donations bigint, discards bigint,
                  processor_fees_minor bigint)
              UNION ALL
              SELECT -1, b.discard, b.day, b.campaign_id, b.recurrence, b.label,
                     COALESCE(b.agency_id, '00000000-0000-0000-0000-000000000000'),
                     b.raised_minor, b.raised_count, b.new_donations, b.discards, COALESCE(b.processor_fees_minor, 0)
              FROM jsonb_to_recordset(before) AS b(discard boolean, day date, campaign_id uuid, recurrence smallint, label text,
                  agency_id uuid, raised_minor bigint, raised_count bigint, new_donations bigint, discards bigint,
                  processor_fees_minor bigint)) c
        GROUP BY 1, 2, 3, 4, 5, 6
        HAVING sum(c.sign * c.raised_minor) <> 0 OR sum(c.sign * c.raised_count) <> 0
            OR sum(c.sign * c.new_donations) <> 0 OR sum(c.sign * c.discards) <> 0
            OR sum(c.sign * c.processor_fees_minor) <> 0
        ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
        IF r.discard THEN
            INSERT INTO dashboard_daily_discards AS x (organization_id, day, campaign_id, recurrence, reason, agency_id, donations)
            VALUES (org, r.day, r.campaign_id, r.recurrence, r.label, r.agency_id, r.discards)
            ON CONFLICT (organization_id, day, campaign_id, recurrence, reason, agency_id) DO UPDATE
            SET donations = x.donations + EXCLUDED.donations;
        ELSE
            INSERT INTO dashboard_daily AS x (organization_id, day, campaign_id, recurrence, currency, agency_id, raised_minor,
                                              raised_count, new_donations, processor_fees_minor)
            VALUES (org, r.day, r.campaign_id, r.recurrence, r.label, r.agency_id, r.raised_minor, r.raised_count, r.new_donations,
                    r.processor_fees_minor)
            ON CONFLICT (organization_id, day, campaign_id, recurrence, currency, agency_id) DO UPDATE
            SET raised_minor = x.raised_minor + EXCLUDED.raised_minor, raised_count = x.raised_count + EXCLUDED.raised_count,
                new_donations = x.new_donations + EXCLUDED.new_donations,
                processor_fees_minor = x.processor_fees_minor + EXCLUDED.processor_fees_minor;
        END IF;
    END LOOP;
END $$;

-- The rebuild (0390's) in three set-based statements with the agency, each naming the organisation as a
-- literal (one shard under Citus); the processor fees are summed with the money they were charged on, so
-- 0390's dashboard_fees_add (whose conflict key this migration changes) goes, and 0080's upsert builders
-- the rebuild used go with the triggers they were for.
CREATE OR REPLACE FUNCTION dashboard_rollup_rebuild(org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM dashboard_daily WHERE organization_id = org;
    DELETE FROM dashboard_daily_discards WHERE organization_id = org;
    EXECUTE format($q$
        INSERT INTO dashboard_daily AS r (organization_id, day, campaign_id, recurrence, currency, agency_id, raised_minor, raised_count,
                                          processor_fees_minor)
        SELECT t.organization_id, (COALESCE(t.charged_at, t.created_at) AT TIME ZONE o.timezone)::date, d.campaign_id, d.recurrence,
               t.currency, COALESCE(d.agency_id, '00000000-0000-0000-0000-000000000000'), sum(t.amount_minor), count(*),
               COALESCE(sum(f.amount_minor), 0)
        FROM transactions t
        JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
        JOIN organizations o ON o.organization_id = t.organization_id
        LEFT JOIN transaction_processor_fees f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
        WHERE t.organization_id = %L AND d.organization_id = %L AND o.organization_id = %L AND t.status = 'approved'
        GROUP BY 1, 2, 3, 4, 5, 6
        ORDER BY 1, 2, 3, 4, 5, 6
    $q$, org, org, org);
    EXECUTE format($q$
        INSERT INTO dashboard_daily AS r (organization_id, day, campaign_id, recurrence, currency, agency_id, new_donations)
        SELECT d.organization_id, (d.created_at AT TIME ZONE o.timezone)::date, d.campaign_id, d.recurrence, d.currency,
               COALESCE(d.agency_id, '00000000-0000-0000-0000-000000000000'), count(*)
        FROM donations d JOIN organizations o ON o.organization_id = d.organization_id
        WHERE d.organization_id = %L AND o.organization_id = %L AND d.status NOT IN ('pending', 'rejected')
        GROUP BY 1, 2, 3, 4, 5, 6
        ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (organization_id, day, campaign_id, recurrence, currency, agency_id) DO UPDATE
        SET new_donations = r.new_donations + EXCLUDED.new_donations
    $q$, org, org);
    EXECUTE format($q$
        INSERT INTO dashboard_daily_discards (organization_id, day, campaign_id, recurrence, reason, agency_id, donations)
        SELECT d.organization_id, (d.discarded_at AT TIME ZONE o.timezone)::date, d.campaign_id, d.recurrence,
               COALESCE(d.discard_reason, ''), COALESCE(d.agency_id, '00000000-0000-0000-0000-000000000000'), count(*)
        FROM donations d JOIN organizations o ON o.organization_id = d.organization_id
        WHERE d.organization_id = %L AND o.organization_id = %L AND d.discarded_at IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5, 6
        ORDER BY 1, 2, 3, 4, 5, 6
    $q$, org, org);
    PERFORM dashboard_pauses_rebuild(org);
END $$;

DROP FUNCTION dashboard_raised_upsert(text);
DROP FUNCTION dashboard_new_upsert(text);
DROP FUNCTION dashboard_discards_upsert(text);
DROP FUNCTION dashboard_fees_add(uuid);

-- The rows already counted under the nil agency move to their agency: only organisations whose
-- agencies have synced donations, one at a time.
DO $$
DECLARE
    org uuid;
BEGIN
    FOR org IN SELECT DISTINCT organization_id FROM donations WHERE agency_id IS NOT NULL LOOP
        PERFORM dashboard_rollup_rebuild(org);
    END LOOP;
END $$;
