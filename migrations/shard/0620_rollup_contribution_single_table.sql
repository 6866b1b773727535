-- The rollup's contribution runs twice a charge (before and after it), and on a Citus worker each run planned its
-- statements again: Citus keeps no plan for a router join whose rows a parameter names (forcing a generic plan fails
-- with "could not create distributed plan"), nor for a grouped read of `id = ANY(ids)`, while a single-table lookup on
-- the distribution key keeps its plan across calls. So each named donation is read once by key, its transactions by
-- donation and each approved one's processor fee by key (0610's lookups), and what they add to the rollup is grouped
-- in statements that read no table. Same answer as 0610's.
CREATE OR REPLACE FUNCTION dashboard_rollup_contribution(org uuid, ids uuid[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    tz text;
    did uuid;
    d record;
    t record;
    fee bigint;
    charges jsonb := '[]';
    counted jsonb := '[]';
    discards jsonb := '[]';
    raised jsonb;
    added jsonb;
    discarded jsonb;
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
            counted := counted || jsonb_build_object('day', (d.created_at AT TIME ZONE tz)::date, 'campaign_id', d.campaign_id,
                'recurrence', d.recurrence, 'label', d.currency, 'agency_id', d.agency_id);
        END IF;
        IF d.discarded_at IS NOT NULL THEN
            discards := discards || jsonb_build_object('day', (d.discarded_at AT TIME ZONE tz)::date, 'campaign_id', d.campaign_id,
                'recurrence', d.recurrence, 'label', d.discard_reason, 'agency_id', d.agency_id);
        END IF;
        -- The approval is checked on the rows found: with it in the statement a plan could answer from the partial
        -- index of the organisation's approved transactions (0610).
        FOR t IN SELECT x.id, COALESCE(x.charged_at, x.created_at) AS at, x.currency, x.amount_minor, x.status
                 FROM transactions x WHERE x.organization_id = org AND x.donation_id = did LOOP
            CONTINUE WHEN t.status <> 'approved';
            SELECT f.amount_minor INTO fee FROM transaction_processor_fees f WHERE f.organization_id = org AND f.transaction_id = t.id;
            charges := charges || jsonb_build_object('day', (t.at AT TIME ZONE tz)::date, 'campaign_id', d.campaign_id,
                'recurrence', d.recurrence, 'label', t.currency, 'agency_id', d.agency_id, 'amount', t.amount_minor, 'fee', fee);
        END LOOP;
    END LOOP;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', label, 'agency_id', agency_id, 'raised_minor', raised_minor, 'raised_count', raised_count,
               'new_donations', 0, 'discards', 0, 'processor_fees_minor', processor_fees_minor))
    INTO raised
    FROM (SELECT c.day, c.campaign_id, c.recurrence, c.label, c.agency_id, sum(c.amount) AS raised_minor,
                 count(*) AS raised_count, COALESCE(sum(c.fee), 0) AS processor_fees_minor
          FROM jsonb_to_recordset(charges) AS c(day date, campaign_id uuid, recurrence smallint, label text, agency_id uuid,
                                                amount bigint, fee bigint)
          GROUP BY 1, 2, 3, 4, 5) r;
    SELECT jsonb_agg(jsonb_build_object('discard', false, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', label, 'agency_id', agency_id, 'raised_minor', 0, 'raised_count', 0, 'new_donations', n, 'discards', 0,
               'processor_fees_minor', 0))
    INTO added
    FROM (SELECT c.day, c.campaign_id, c.recurrence, c.label, c.agency_id, count(*) AS n
          FROM jsonb_to_recordset(counted) AS c(day date, campaign_id uuid, recurrence smallint, label text, agency_id uuid)
          GROUP BY 1, 2, 3, 4, 5) n;
    SELECT jsonb_agg(jsonb_build_object('discard', true, 'day', day, 'campaign_id', campaign_id, 'recurrence', recurrence,
               'label', label, 'agency_id', agency_id, 'raised_minor', 0, 'raised_count', 0, 'new_donations', 0, 'discards', n,
               'processor_fees_minor', 0))
    INTO discarded
    FROM (SELECT c.day, c.campaign_id, c.recurrence, c.label, c.agency_id, count(*) AS n
          FROM jsonb_to_recordset(discards) AS c(day date, campaign_id uuid, recurrence smallint, label text, agency_id uuid)
          GROUP BY 1, 2, 3, 4, 5) x;
    RETURN COALESCE(raised, '[]') || COALESCE(added, '[]') || COALESCE(discarded, '[]');
END $$;
