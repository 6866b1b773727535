-- The paused widget without a filter, when every paused donation's pause in the period has its fact (the case of
-- data written through the collection workflow), reads its rows in one statement of dashboard_pauses (issue 19):
-- dashboard_pause_counts over arrays cost about 1 ms of the call's 3.5 on the bench's organisation, this under half.
-- The donations paused without a fact are read first, to tell the cases apart, from an index of them alone (0681):
-- the period's paused donations whose pause has a fact are no longer read to be set aside. The daily and visits
-- widgets group days by the day itself when the buckets are days (the call's plan folds the CASE away) and by the
-- currency column before its cast: date_trunc and the cast on each of the period's rollup rows cost a third of those
-- reads. The rest is 0670's function.
CREATE OR REPLACE FUNCTION dashboard_widgets(org uuid, p_bucket text, first_day date, last_day date, p_campaign uuid,
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
    SELECT 'daily'::text, CASE WHEN p_bucket = 'day' THEN r.day ELSE date_trunc(p_bucket, r.day::timestamp)::date END,
           r.currency::text, sum(r.raised_minor)::bigint, sum(r.raised_count)::bigint, sum(r.new_donations)::bigint,
           sum(r.processor_fees_minor)::bigint
    FROM dashboard_daily r
    WHERE r.organization_id = org AND r.day >= first_day AND r.day <= last_day
      AND (p_campaign IS NULL OR r.campaign_id = p_campaign) AND (p_recurrence IS NULL OR r.recurrence = p_recurrence)
      AND (p_agency IS NULL OR r.agency_id = p_agency)
    GROUP BY 2, r.currency
    HAVING sum(r.raised_count) <> 0 OR sum(r.new_donations) <> 0;

    IF p_agency IS NULL THEN
        RETURN QUERY
        SELECT 'visits'::text, CASE WHEN p_bucket = 'day' THEN v.day ELSE date_trunc(p_bucket, v.day::timestamp)::date END,
               ''::text, sum(v.visits)::bigint, 0::bigint, 0::bigint, 0::bigint
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

    SELECT array_agg(d.id), array_agg(d.paused_since), array_agg(d.paused_reason)
    INTO lone_ids, lone_at, lone_reasons
    FROM donations d
    WHERE d.organization_id = org AND d.status = 'paused' AND d.paused_since >= p_start AND d.paused_since < p_end
      AND (d.pause_fact_at IS NULL OR d.pause_fact_at - d.paused_since NOT BETWEEN interval '-1 minute' AND interval '1 minute')
      AND (p_campaign IS NULL OR d.campaign_id = p_campaign) AND (p_recurrence IS NULL OR d.recurrence = p_recurrence)
      AND (p_agency IS NULL OR d.agency_id = p_agency);
    IF NOT filtered AND lone_ids IS NULL THEN
        -- Every pause of the period is a fact and every donation is shown: dashboard_pause_counts over the facts
        -- alone, read straight from dashboard_pauses (the arrays' building and unnesting cost twice this statement).
        RETURN QUERY
        SELECT 'paused'::text, first_day, COALESCE(l.reason, 'unknown')::text, count(*) FILTER (WHERE l.settled),
               count(*) FILTER (WHERE NOT l.settled), 0::bigint, 0::bigint
        FROM (SELECT DISTINCT ON (p.donation_id) p.reason, p.paused_at + interval '7 days' <= p_now AS settled
              FROM dashboard_pauses p
              WHERE p.organization_id = org AND p.paused_at >= p_start AND p.paused_at < p_end
                AND (p.resumed_at IS NULL OR p.resumed_at > LEAST(p.paused_at + interval '7 days', p_now))
              ORDER BY p.donation_id, 2 DESC, p.paused_at DESC) l
        GROUP BY 3;
    ELSE
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
        RETURN QUERY
        SELECT 'paused'::text, first_day, c.reason, c.counted, c.in_grace, 0::bigint, 0::bigint
        FROM dashboard_pause_counts(p_start, p_end, p_now, filtered, fact_kept, fact_ids, fact_at, fact_reasons, fact_resumed,
                                    lone_ids, lone_at, lone_reasons) AS c;
    END IF;

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
