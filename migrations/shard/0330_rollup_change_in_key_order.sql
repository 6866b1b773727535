-- Rollup writers that cannot deadlock (issue 18). 0300's writers took their donations' contribution
-- out and put it back with six upserts, each in key order but not together: a monthly donation's
-- raised rows (its charges' days) were locked before its new-donation row (its first day, earlier),
-- and dashboard_daily rows both before and after dashboard_daily_discards rows, so two writers of one
-- organisation locked the same rows in opposite orders and deadlocked (on Citus the demo seed's
-- parallel writers did, every run). Now a writer reads its donations' contribution before its change
-- (dashboard_rollup_contribution) and afterwards adds only the difference (dashboard_rollup_add):
-- the rows that change, one statement per row, every dashboard_daily row before any
-- dashboard_daily_discards row and each table in key order. Every writer locks rollup rows in that one
-- order, last thing before its commit, and a change the rollup does not count (a refused charge)
-- locks none.

DROP FUNCTION dashboard_rollup_apply(uuid, uuid[], int);

-- The rollup rows the organisation's donations ids and their transactions add, as a JSON array of
-- {discard, day, campaign_id, recurrence, label, raised_minor, raised_count, new_donations, discards}:
-- label is the currency of a dashboard_daily row (discard false), the reason of a
-- dashboard_daily_discards row (discard true). The definitions are 0080's, as
-- dashboard_rollup_rebuild's (which writes a whole organisation in three statements).
CREATE FUNCTION dashboard_rollup_contribution(org uuid, ids uuid[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    tz text;
    raised jsonb;
    added jsonb;
    discarded jsonb;
BEGIN
    SELECT timezone INTO tz FROM organizations WHERE organization_id = org;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', currency, 'raised_minor', raised_minor, 'raised_count', raised_count, 'new_donations', 0, 'discards', 0))
    INTO raised
    FROM (SELECT (COALESCE(t.charged_at, t.created_at) AT TIME ZONE tz)::date AS day, d.campaign_id, d.recurrence, t.currency,
                 sum(t.amount_minor) AS raised_minor, count(*) AS raised_count
          FROM transactions t JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
          WHERE t.organization_id = org AND d.organization_id = org AND t.donation_id = ANY(ids)
            AND t.status = 'approved'
          GROUP BY 1, 2, 3, 4) r;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', currency, 'raised_minor', 0, 'raised_count', 0, 'new_donations', n, 'discards', 0))
    INTO added
    FROM (SELECT (created_at AT TIME ZONE tz)::date AS day, campaign_id, recurrence, currency, count(*) AS n
          FROM donations
          WHERE organization_id = org AND id = ANY(ids) AND status NOT IN ('pending', 'rejected')
          GROUP BY 1, 2, 3, 4) n;
    SELECT jsonb_agg(jsonb_build_object('discard', true, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', reason, 'raised_minor', 0, 'raised_count', 0, 'new_donations', 0, 'discards', n))
    INTO discarded
    FROM (SELECT (discarded_at AT TIME ZONE tz)::date AS day, campaign_id, recurrence, COALESCE(discard_reason, '') AS reason,
                 count(*) AS n
          FROM donations
          WHERE organization_id = org AND id = ANY(ids) AND discarded_at IS NOT NULL
          GROUP BY 1, 2, 3, 4) x;
    RETURN COALESCE(raised, '[]') || COALESCE(added, '[]') || COALESCE(discarded, '[]');
END $$;

-- Adds to the rollup what the donations' contribution gained since before (what
-- dashboard_rollup_contribution answered then), row by row in the one order every writer follows.
CREATE FUNCTION dashboard_rollup_add(org uuid, ids uuid[], before jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    after jsonb := dashboard_rollup_contribution(org, ids);
    r record;
BEGIN
    FOR r IN
        SELECT c.discard, c.day, c.campaign_id, c.recurrence, c.label, sum(c.sign * c.raised_minor) AS raised_minor,
               sum(c.sign * c.raised_count) AS raised_count, sum(c.sign * c.new_donations) AS new_donations,
               sum(c.sign * c.discards) AS discards
        FROM (SELECT 1 AS sign, * FROM jsonb_to_recordset(after) AS a(discard boolean, day date, campaign_id uuid,
                  recurrence smallint, label text, raised_minor bigint, raised_count bigint, new_donations bigint, discards bigint)
              UNION ALL
              SELECT -1, * FROM jsonb_to_recordset(before) AS b(discard boolean, day date, campaign_id uuid,
                  recurrence smallint, label text, raised_minor bigint, raised_count bigint, new_donations bigint, discards bigint)) c
        GROUP BY 1, 2, 3, 4, 5
        HAVING sum(c.sign * c.raised_minor) <> 0 OR sum(c.sign * c.raised_count) <> 0
            OR sum(c.sign * c.new_donations) <> 0 OR sum(c.sign * c.discards) <> 0
        ORDER BY 1, 2, 3, 4, 5
    LOOP
        IF r.discard THEN
            INSERT INTO dashboard_daily_discards AS x (organization_id, day, campaign_id, recurrence, reason, donations)
            VALUES (org, r.day, r.campaign_id, r.recurrence, r.label, r.discards)
            ON CONFLICT (organization_id, day, campaign_id, recurrence, reason) DO UPDATE
            SET donations = x.donations + EXCLUDED.donations;
        ELSE
            INSERT INTO dashboard_daily AS x (organization_id, day, campaign_id, recurrence, currency, raised_minor, raised_count,
                                              new_donations)
            VALUES (org, r.day, r.campaign_id, r.recurrence, r.label, r.raised_minor, r.raised_count, r.new_donations)
            ON CONFLICT (organization_id, day, campaign_id, recurrence, currency) DO UPDATE
            SET raised_minor = x.raised_minor + EXCLUDED.raised_minor, raised_count = x.raised_count + EXCLUDED.raised_count,
                new_donations = x.new_donations + EXCLUDED.new_donations;
        END IF;
    END LOOP;
END $$;
