-- A charge's record took an organisation's whole history while it held the rollup's rows (issue 19). Before a
-- table has statistics (a new shard, or an organisation grown since its last ANALYZE), the planner estimates
-- `status = 'approved'` with `organization_id = $1` at one row, so it answered these lookups from a partial index
-- of approved transactions by organisation alone, filtering the rest: every approved transaction of the
-- organisation, and in receipt_issue's join every one of them for each of its donations. Each lookup below names
-- its row by key, and the approval is checked on the row found, so no plan can read more than the key's rows.
-- Same answers as 0410's contribution and 0561's and 0590's functions.

-- The donations are read by key and their transactions donation by donation, the approval checked on the rows
-- found: each OFFSET 0 keeps the planner from flattening its subquery, or pushing the approval into it, back into
-- the organisation-wide scan. Each transaction's processor fee is read by its key.
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
                 COALESCE(sum(t.fee_minor), 0) AS processor_fees_minor
          FROM (SELECT DISTINCT u.id FROM unnest(ids) AS u(id)) u
          CROSS JOIN LATERAL (SELECT campaign_id, recurrence, agency_id FROM donations
                              WHERE organization_id = org AND id = u.id OFFSET 0) d
          CROSS JOIN LATERAL (SELECT x.charged_at, x.created_at, x.currency, x.amount_minor, x.status,
                                     (SELECT f.amount_minor FROM transaction_processor_fees f
                                      WHERE f.organization_id = org AND f.transaction_id = x.id) AS fee_minor
                              FROM transactions x WHERE x.organization_id = org AND x.donation_id = u.id OFFSET 0) t
          WHERE t.status = 'approved'
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

-- The transaction by its key, then its donation, donor and campaign and the organisation by theirs, each a
-- single-table lookup: on Citus, where the function runs on the worker, such a statement keeps its plan from call to
-- call, while a join is planned again on every charge.
CREATE OR REPLACE FUNCTION receipt_issue(org uuid, tx uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    t record;
    d record;
    dn record;
    o record;
    p record;
    title text;
BEGIN
    SELECT number INTO n FROM receipts WHERE organization_id = org AND transaction_id = tx;
    IF FOUND THEN
        RETURN n;
    END IF;
    SELECT id, donation_id, amount_minor, currency, coalesce(charged_at, created_at) AS charged_at, status
    INTO t
    FROM transactions WHERE organization_id = org AND id = tx;
    IF NOT FOUND OR t.status <> 'approved' THEN
        RAISE EXCEPTION 'receipt: transaction % is not approved', tx;
    END IF;
    SELECT donor_id, campaign_id INTO d FROM donations WHERE organization_id = org AND id = t.donation_id;
    SELECT first_name, last_name, email, uid_type, uid_number INTO dn FROM donors WHERE organization_id = org AND id = d.donor_id;
    SELECT campaigns.title INTO title FROM campaigns WHERE organization_id = org AND id = d.campaign_id;
    SELECT name, uid_type, uid INTO o FROM organizations WHERE organization_id = org;
    SELECT legal_name, address INTO p FROM organization_profiles WHERE organization_id = org;
    INSERT INTO receipt_counters (organization_id, last_number) VALUES (org, 1)
    ON CONFLICT (organization_id) DO UPDATE SET last_number = receipt_counters.last_number + 1
    RETURNING last_number INTO n;
    INSERT INTO receipts (organization_id, number, transaction_id, donation_id, donor_id, amount_minor, currency, charged_at,
                          campaign_title, donor_name, donor_email, donor_tax_id, org_legal_name, org_tax_id, org_address)
    VALUES (org, n, t.id, t.donation_id, d.donor_id, t.amount_minor, t.currency, t.charged_at, title,
            trim(dn.first_name || ' ' || dn.last_name), dn.email,
            trim(coalesce(dn.uid_type, '') || ' ' || coalesce(dn.uid_number, '')),
            coalesce(nullif(p.legal_name, ''), o.name), trim(coalesce(o.uid_type, '') || ' ' || coalesce(o.uid, '')),
            concat_ws(', ', nullif(trim(coalesce(p.address ->> 'street', '') || ' ' || coalesce(p.address ->> 'number', '')), ''),
                      nullif(p.address ->> 'postal_code', ''), nullif(p.address ->> 'city', ''), nullif(p.address ->> 'state', '')));
    RETURN n;
END $$;

-- The organisation first: most owe no commission, and then the transaction is not read. Then the transaction by its
-- key; the commission is owed on an approved one charged after the trial.
CREATE OR REPLACE FUNCTION record_transaction_commission(p_org uuid, p_tx uuid) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    o record;
    t record;
    amount bigint;
BEGIN
    SELECT commission_bps, trial_ends_at INTO o FROM organizations WHERE organization_id = p_org;
    IF NOT FOUND OR coalesce(o.commission_bps, 0) <= 0 OR o.trial_ends_at IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT amount_minor, currency, status, coalesce(charged_at, created_at) AS at INTO t
    FROM transactions WHERE organization_id = p_org AND id = p_tx;
    IF NOT FOUND OR t.status <> 'approved' OR t.at < o.trial_ends_at THEN
        RETURN NULL;
    END IF;
    INSERT INTO transaction_commissions (organization_id, transaction_id, commission_bps, amount_minor, currency)
    VALUES (p_org, p_tx, o.commission_bps, (t.amount_minor * o.commission_bps + 5000) / 10000, t.currency)
    ON CONFLICT (organization_id, transaction_id) DO UPDATE SET amount_minor = excluded.amount_minor
    RETURNING amount_minor INTO amount;
    RETURN amount;
END $$;
