-- The dashboard's widgets in one delegated call (issue 19). internal/sharddb's Dashboard was one statement of eight
-- CTEs: its widgets' reads cost under 2 ms, but PostgreSQL parsed and planned it again on every request, and on
-- Citus twice (the coordinator plans a router statement that is not fast-path with its values, then the worker
-- parses and plans the text it is sent), some 4 ms more. Here every read is a single-table statement of the
-- organisation's rows, which plain PostgreSQL keeps planned and which Citus, on the worker that runs the call,
-- executes as fast-path statements on the local shard, each cheap to plan; what joins the pause facts and the
-- recoveries runs over the arrays those reads answer. The function is STABLE, so every statement in it reads the snapshot of the
-- call: the widgets agree with each other as the single statement's did.
--
-- Parameters: first_day, last_day, the period's days in the organisation's time zone; p_start, p_end the
-- timestamptz of its first day and of the day after its last, in the time zone the handler read (the
-- 'organization' row answers the stored one); p_campaign, p_recurrence (1 monthly, 0 one-time), p_agency: filters,
-- NULL for all; p_bucket 'day' or 'month'; p_now the time of reading, p_user and p_guide the campaign guide's user
-- and name. Rows, as widget, bucket (the period's first day where the widget has none), label, n1-n4:
--   daily         per bucket and currency, from the daily rollup (0080): n1 raised_minor, n2 raised_count of the
--                 approved transactions charged in the period (created_at when charged_at is missing), n3
--                 new_donations created in it (pending and rejected ones, whose first charge is not settled or was
--                 refused, are not donations yet), n4 processor_fees_minor of those transactions (0390); buckets
--                 with neither money nor donations omitted.
--   visits        per bucket, n1 visits. Visits belong to a campaign, not to a frequency, so the frequency filter
--                 does not apply; nor to an agency (its donors sign up on the street): none with one.
--   discarded     label = reason ('': none given), n1 donations discarded in the period.
--   paused        label = reason, n1 counted, n2 in grace. A pause is an event at time p: a pause fact (0370), or,
--                 for a donation still paused whose pause has no fact (written outside the collection workflow),
--                 its paused_since. A pause in the period COUNTS when 7 days have passed since p by now and it was
--                 not restored in (p, p + 7 days]; it is IN GRACE when fewer have passed and it has not been
--                 restored yet. A donation counts once, with the reason of its latest pause in the period, and
--                 never in grace when one of its pauses counts.
--   recovered     n1 donations recovered in the period: a charge was declined, the donor gave a new card in the
--                 donor portal (a payment_method version signed 'donor:…' in the period) and a charge was approved
--                 after it (issue 20).
--   organization  label = time zone, n1 has campaigns (0/1), n2 the user's step of the guide, n3 the campaign filter
--                 names a campaign of the organisation (0/1), n4 the agency filter names an agency of it, a
--                 discarded one included (0/1); both 1 without the filter. No rows at all when the organisation
--                 is gone.

-- The paused widget also counts a donation paused without a pause fact (one written outside the collection
-- workflow), by its paused_since: a pause fact within a minute of it is the same pause. pause_fact_at is the time of
-- the donation's latest pause fact as recorded (history.Record's RecordDashboardPause, dashboard_pauses_rebuild),
-- NULL before any, so the period's paused donations whose pause has a fact are told apart from the index alone
-- instead of each being read and compared with the facts (donations_dashboard_lone_idx, 0671). It is only ever the
-- time of one of the donation's facts, so a donation it leaves in is compared with the facts still
-- (dashboard_pause_counts): the answer stays exact.
ALTER TABLE donations ADD COLUMN pause_fact_at timestamptz;

-- Sets an organisation's donations' pause_fact_at from its pause facts, writing only the rows whose value changes
-- (a rebuild mostly finds them right). Grouped and joined rather than a max() per donation: PostgreSQL may answer
-- that max from dashboard_pauses_period_idx, read backwards through the whole organisation's facts for each
-- donation without one (on freshly loaded tables it did, for 100,000 donations).
CREATE FUNCTION dashboard_pause_fact_at_rebuild(org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($q$
        UPDATE donations d SET pause_fact_at = NULL
        WHERE d.organization_id = %L AND d.pause_fact_at IS NOT NULL
          AND NOT EXISTS (SELECT FROM dashboard_pauses p WHERE p.organization_id = %L AND p.donation_id = d.id)
    $q$, org, org);
    EXECUTE format($q$
        UPDATE donations d SET pause_fact_at = f.at
        FROM (SELECT p.donation_id, max(p.paused_at) AS at FROM dashboard_pauses p
              WHERE p.organization_id = %L GROUP BY p.donation_id) f
        WHERE d.organization_id = %L AND d.id = f.donation_id AND d.pause_fact_at IS DISTINCT FROM f.at
    $q$, org, org);
END $$;

-- dashboard_pauses_rebuild(org): 0370's, and the donations' pause_fact_at from the facts it writes.
CREATE OR REPLACE FUNCTION dashboard_pauses_rebuild(org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($q$DELETE FROM dashboard_pauses WHERE organization_id = %L$q$, org);
    EXECUTE format($q$
        INSERT INTO dashboard_pauses (organization_id, donation_id, paused_at, reason, resumed_at)
        SELECT v.organization_id, v.donation_id, v.created_at, v.after ->> 'paused_reason',
               (SELECT min(r.created_at) FROM donation_versions r
                WHERE r.organization_id = %L AND r.donation_id = v.donation_id AND r.field = 'status'
                  AND r.before ->> 'status' = 'paused' AND r.after ->> 'status' = 'active' AND r.created_at > v.created_at)
        FROM donation_versions v
        WHERE v.organization_id = %L AND v.field = 'status' AND v.after ->> 'status' = 'paused'
        ON CONFLICT (organization_id, donation_id, paused_at) DO NOTHING
    $q$, org, org);
    PERFORM dashboard_pause_fact_at_rebuild(org);
END $$;

DO $$
DECLARE
    org uuid;
BEGIN
    FOR org IN SELECT organization_id FROM organizations LOOP
        PERFORM dashboard_pause_fact_at_rebuild(org);
    END LOOP;
END $$;

CREATE FUNCTION dashboard_widgets(org uuid, p_bucket text, first_day date, last_day date, p_campaign uuid,
                                  p_recurrence smallint, p_agency uuid, p_start timestamptz, p_end timestamptz,
                                  p_now timestamptz, p_user uuid, p_guide text)
RETURNS TABLE (widget text, bucket date, label text, n1 bigint, n2 bigint, n3 bigint, n4 bigint)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    filtered constant boolean := p_campaign IS NOT NULL OR p_recurrence IS NOT NULL OR p_agency IS NOT NULL;
    tz text;
    has_campaigns boolean;
    guide_step bigint;
    campaign_known boolean := true;
    agency_known boolean := true;
    -- pause facts from a minute before the period to a minute after it: also the facts of the fallback's pauses
    fact_ids uuid[];
    fact_at timestamptz[];
    fact_reasons text[];
    fact_resumed timestamptz[];
    fact_kept uuid[];
    -- donations paused in the period (the filters applied) whose pause may have no fact
    lone_ids uuid[];
    lone_at timestamptz[];
    lone_reasons text[];
    -- donors' new cards in the period and the charges of their donations
    card_ids uuid[];
    card_at timestamptz[];
    card_kept uuid[];
    charge_ids uuid[];
    charge_status text[];
    charge_at timestamptz[];
    recovered bigint := 0;
BEGIN
    SELECT o.timezone INTO tz FROM organizations o WHERE o.organization_id = org;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    PERFORM FROM campaigns c WHERE c.organization_id = org LIMIT 1;
    has_campaigns := FOUND;
    SELECT g.step INTO guide_step FROM guide_progress g
    WHERE g.organization_id = org AND g.user_id = p_user AND g.guide_name = p_guide;
    IF p_campaign IS NOT NULL THEN
        PERFORM FROM campaigns c WHERE c.organization_id = org AND c.id = p_campaign;
        campaign_known := FOUND;
    END IF;
    IF p_agency IS NOT NULL THEN
        PERFORM FROM agencies a WHERE a.organization_id = org AND a.id = p_agency;
        agency_known := FOUND;
    END IF;
    RETURN QUERY SELECT 'organization'::text, first_day, tz, has_campaigns::int::bigint, COALESCE(guide_step, 0)::bigint,
                        campaign_known::int::bigint, agency_known::int::bigint;

    RETURN QUERY
    SELECT 'daily'::text, date_trunc(p_bucket, r.day::timestamp)::date, r.currency::text, sum(r.raised_minor)::bigint,
           sum(r.raised_count)::bigint, sum(r.new_donations)::bigint, sum(r.processor_fees_minor)::bigint
    FROM dashboard_daily r
    WHERE r.organization_id = org AND r.day >= first_day AND r.day <= last_day
      AND (p_campaign IS NULL OR r.campaign_id = p_campaign) AND (p_recurrence IS NULL OR r.recurrence = p_recurrence)
      AND (p_agency IS NULL OR r.agency_id = p_agency)
    GROUP BY 2, 3
    HAVING sum(r.raised_count) <> 0 OR sum(r.new_donations) <> 0;

    IF p_agency IS NULL THEN
        RETURN QUERY
        SELECT 'visits'::text, date_trunc(p_bucket, v.day::timestamp)::date, ''::text, sum(v.visits)::bigint,
               0::bigint, 0::bigint, 0::bigint
        FROM campaign_visits v
        WHERE v.organization_id = org AND v.day >= first_day AND v.day <= last_day
          AND (p_campaign IS NULL OR v.campaign_id = p_campaign)
        GROUP BY 2;
    END IF;

    RETURN QUERY
    SELECT 'discarded'::text, first_day, r.reason, sum(r.donations)::bigint, 0::bigint, 0::bigint, 0::bigint
    FROM dashboard_daily_discards r
    WHERE r.organization_id = org AND r.day >= first_day AND r.day <= last_day
      AND (p_campaign IS NULL OR r.campaign_id = p_campaign) AND (p_recurrence IS NULL OR r.recurrence = p_recurrence)
      AND (p_agency IS NULL OR r.agency_id = p_agency)
    GROUP BY 3
    HAVING sum(r.donations) <> 0;

    SELECT array_agg(p.donation_id), array_agg(p.paused_at), array_agg(p.reason), array_agg(p.resumed_at)
    INTO fact_ids, fact_at, fact_reasons, fact_resumed
    FROM dashboard_pauses p
    WHERE p.organization_id = org AND p.paused_at >= p_start - interval '1 minute' AND p.paused_at < p_end + interval '1 minute';
    IF filtered AND fact_ids IS NOT NULL THEN
        SELECT array_agg(d.id) INTO fact_kept FROM donations d
        WHERE d.organization_id = org AND d.id = ANY (fact_ids)
          AND (p_campaign IS NULL OR d.campaign_id = p_campaign) AND (p_recurrence IS NULL OR d.recurrence = p_recurrence)
          AND (p_agency IS NULL OR d.agency_id = p_agency);
    END IF;
    SELECT array_agg(d.id), array_agg(d.paused_since), array_agg(d.paused_reason)
    INTO lone_ids, lone_at, lone_reasons
    FROM donations d
    WHERE d.organization_id = org AND d.status = 'paused' AND d.paused_since >= p_start AND d.paused_since < p_end
      AND (d.pause_fact_at IS NULL OR d.pause_fact_at NOT BETWEEN d.paused_since - interval '1 minute'
                                                               AND d.paused_since + interval '1 minute')
      AND (p_campaign IS NULL OR d.campaign_id = p_campaign) AND (p_recurrence IS NULL OR d.recurrence = p_recurrence)
      AND (p_agency IS NULL OR d.agency_id = p_agency);
    RETURN QUERY
    SELECT 'paused'::text, first_day, c.reason, c.counted, c.in_grace, 0::bigint, 0::bigint
    FROM dashboard_pause_counts(p_start, p_end, p_now, filtered, fact_kept, fact_ids, fact_at, fact_reasons, fact_resumed,
                                lone_ids, lone_at, lone_reasons) AS c;

    SELECT array_agg(v.donation_id), array_agg(v.created_at) INTO card_ids, card_at
    FROM donation_versions v
    WHERE v.organization_id = org AND v.field = 'payment_method' AND v.actor LIKE 'donor:%'
      AND v.created_at >= p_start AND v.created_at < p_end;
    IF card_ids IS NOT NULL THEN
        SELECT array_agg(d.id) INTO card_kept FROM donations d
        WHERE d.organization_id = org AND d.id = ANY (card_ids)
          AND (p_campaign IS NULL OR d.campaign_id = p_campaign) AND (p_recurrence IS NULL OR d.recurrence = p_recurrence)
          AND (p_agency IS NULL OR d.agency_id = p_agency);
        SELECT array_agg(t.donation_id), array_agg(t.status), array_agg(t.created_at) INTO charge_ids, charge_status, charge_at
        FROM transactions t
        WHERE t.organization_id = org AND t.donation_id = ANY (card_kept) AND t.status IN ('rejected', 'approved');
        SELECT count(DISTINCT c.id) INTO recovered
        FROM unnest(card_ids, card_at) AS c (id, at)
        WHERE c.id = ANY (card_kept)
          AND EXISTS (SELECT FROM unnest(charge_ids, charge_status, charge_at) AS t (id, status, at)
                      WHERE t.id = c.id AND t.status = 'rejected' AND t.at < c.at)
          AND EXISTS (SELECT FROM unnest(charge_ids, charge_status, charge_at) AS t (id, status, at)
                      WHERE t.id = c.id AND t.status = 'approved' AND t.at > c.at);
    END IF;
    RETURN QUERY SELECT 'recovered'::text, first_day, ''::text, recovered, 0::bigint, 0::bigint, 0::bigint;
END $$;

-- The paused widget's rows (dashboard_widgets) from the pause facts of the period and a minute around it (fact_*,
-- those of a donation of the filters in kept when filtered) and the donations paused in it whose pause may have no
-- fact (lone_*). A function of its own, with a plan kept across calls: a delegated function's statements are
-- planned for each call's values (tenants/migrate.go), a setting its callees inherit, and this statement reads
-- no table, so its plan depends on no value.
CREATE FUNCTION dashboard_pause_counts(p_start timestamptz, p_end timestamptz, p_now timestamptz, filtered boolean,
                                       kept uuid[], fact_ids uuid[], fact_at timestamptz[], fact_reasons text[],
                                       fact_resumed timestamptz[], lone_ids uuid[], lone_at timestamptz[],
                                       lone_reasons text[])
RETURNS TABLE (reason text, counted bigint, in_grace bigint)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH facts AS (
        SELECT f.id, f.at, f.reason, f.resumed FROM unnest(fact_ids, fact_at, fact_reasons, fact_resumed) AS f (id, at, reason, resumed)
    ), pauses AS (
        SELECT f.id, f.at, f.reason, f.resumed FROM facts f
        WHERE f.at >= p_start AND f.at < p_end AND (NOT filtered OR f.id = ANY (kept))
        UNION ALL
        SELECT l.id, l.at, l.reason, NULL FROM unnest(lone_ids, lone_at, lone_reasons) AS l (id, at, reason)
        WHERE NOT EXISTS (SELECT FROM facts f WHERE f.id = l.id AND f.at BETWEEN l.at - interval '1 minute' AND l.at + interval '1 minute')
    ), latest AS (
        -- each donation's latest pause that counts, or else its latest one in grace
        SELECT DISTINCT ON (p.id) p.reason, p.at + interval '7 days' <= p_now AS settled
        FROM pauses p
        WHERE p.resumed IS NULL OR p.resumed > LEAST(p.at + interval '7 days', p_now)
        ORDER BY p.id, 2 DESC, p.at DESC
    )
    SELECT COALESCE(l.reason, 'unknown')::text, count(*) FILTER (WHERE l.settled), count(*) FILTER (WHERE NOT l.settled)
    FROM latest l
    GROUP BY 1;
END $$;
