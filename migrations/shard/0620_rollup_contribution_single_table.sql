-- The rollup's contribution runs twice a charge (before and after it), and on a Citus worker each run planned its
-- statements again: Citus keeps no plan for a router join whose rows a parameter names (forcing a generic plan fails
-- with "could not create distributed plan"), nor for a grouped read of `id = ANY(ids)`, while a single-table lookup on
-- the distribution key keeps its plan across calls. So each named donation is read once by key, its transactions by
-- donation and each approved one's processor fee by key (0610's lookups), and what they add to the rollup is grouped
-- in one statement that reads no table. The same sums by rollup row as 0610's (dashboard_rollup_add adds them by row,
-- so a row's raised amounts and new donations may now come in one object).
CREATE OR REPLACE FUNCTION dashboard_rollup_contribution(org uuid, ids uuid[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    tz text;
    did uuid;
    d record;
    t record;
    fee bigint;
    entries jsonb := '[]';
    grouped jsonb;
BEGIN
    SELECT timezone INTO tz FROM organizations WHERE organization_id = org;
    FOR did IN SELECT DISTINCT u.id FROM unnest(ids) AS u(id) LOOP
        SELECT x.campaign_id, x.recurrence, x.currency, x.status, x.created_at, x.discarded_at,
               COALESCE(x.discard_reason, '') AS discard_reason,
               COALESCE(x.agency_id, '00000000-0000-0000-0000-000000000000') AS agency_id
        INTO d
        FROM donations x WHERE x.organization_id = org AND x.id = did;
        CONTINUE WHEN NOT FOUND;
        IF d.status NOT IN ('pending', 'rejected') THEN
            entries := entries || jsonb_build_object('discard', false, 'day', (d.created_at AT TIME ZONE tz)::date,
                'campaign_id', d.campaign_id, 'recurrence', d.recurrence, 'label', d.currency, 'agency_id', d.agency_id,
                'new_donations', 1);
        END IF;
        IF d.discarded_at IS NOT NULL THEN
            entries := entries || jsonb_build_object('discard', true, 'day', (d.discarded_at AT TIME ZONE tz)::date,
                'campaign_id', d.campaign_id, 'recurrence', d.recurrence, 'label', d.discard_reason, 'agency_id', d.agency_id,
                'discards', 1);
        END IF;
        -- The approval is checked on the rows found: with it in the statement a plan could answer from the partial
        -- index of the organisation's approved transactions (0610).
        FOR t IN SELECT x.id, COALESCE(x.charged_at, x.created_at) AS at, x.currency, x.amount_minor, x.status
                 FROM transactions x WHERE x.organization_id = org AND x.donation_id = did LOOP
            CONTINUE WHEN t.status <> 'approved';
            SELECT f.amount_minor INTO fee FROM transaction_processor_fees f WHERE f.organization_id = org AND f.transaction_id = t.id;
            entries := entries || jsonb_build_object('discard', false, 'day', (t.at AT TIME ZONE tz)::date,
                'campaign_id', d.campaign_id, 'recurrence', d.recurrence, 'label', t.currency, 'agency_id', d.agency_id,
                'raised_minor', t.amount_minor, 'raised_count', 1, 'processor_fees_minor', fee);
        END LOOP;
    END LOOP;
    SELECT jsonb_agg(jsonb_build_object('discard', discard, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', label, 'agency_id', agency_id, 'raised_minor', raised_minor, 'raised_count', raised_count,
               'new_donations', new_donations, 'discards', discards, 'processor_fees_minor', processor_fees_minor))
    INTO grouped
    FROM (SELECT e.discard, e.day, e.campaign_id, e.recurrence, e.label, e.agency_id,
                 COALESCE(sum(e.raised_minor), 0) AS raised_minor, COALESCE(sum(e.raised_count), 0) AS raised_count,
                 COALESCE(sum(e.new_donations), 0) AS new_donations, COALESCE(sum(e.discards), 0) AS discards,
                 COALESCE(sum(e.processor_fees_minor), 0) AS processor_fees_minor
          FROM jsonb_to_recordset(entries) AS e(discard boolean, day date, campaign_id uuid, recurrence smallint, label text,
                                                agency_id uuid, raised_minor bigint, raised_count bigint, new_donations bigint,
                                                discards bigint, processor_fees_minor bigint)
          GROUP BY 1, 2, 3, 4, 5, 6) g;
    RETURN COALESCE(grouped, '[]');
END $$;
