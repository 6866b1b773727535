-- Every approval of an organisation waits for the one before it to commit: charge_record takes the organisation's
-- rollup rows (dashboard_rollup_add) and then its receipt counter, and every charge of a campaign on one day adds to
-- the same rollup row. receipt_issue read the receipt's data (the transaction, donation, donor, campaign, organisation
-- and profile) after the rollup rows were taken, so those reads were part of that wait for every charge queued behind
-- it. They now come first (receipt_prepare, no lock taken), and only the counter and the receipt's row come after the
-- rollup rows (receipt_insert), in the same lock order as before. Same receipts, same numbers, same answers as
-- 0610's receipt_issue and 0590's charge_record.

-- The receipt of approved transaction tx, to insert (receipt_insert); null when it has one already.
CREATE FUNCTION receipt_prepare(org uuid, tx uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    t record;
    d record;
    dn record;
    o record;
    p record;
    title text;
BEGIN
    PERFORM 1 FROM receipts WHERE organization_id = org AND transaction_id = tx;
    IF FOUND THEN
        RETURN NULL;
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
    RETURN jsonb_build_object('transaction_id', t.id, 'donation_id', t.donation_id, 'donor_id', d.donor_id,
        'amount_minor', t.amount_minor, 'currency', t.currency, 'charged_at', t.charged_at, 'campaign_title', title,
        'donor_name', trim(dn.first_name || ' ' || dn.last_name), 'donor_email', dn.email,
        'donor_tax_id', trim(coalesce(dn.uid_type, '') || ' ' || coalesce(dn.uid_number, '')),
        'org_legal_name', coalesce(nullif(p.legal_name, ''), o.name),
        'org_tax_id', trim(coalesce(o.uid_type, '') || ' ' || coalesce(o.uid, '')),
        'org_address', concat_ws(', ',
            nullif(trim(coalesce(p.address ->> 'street', '') || ' ' || coalesce(p.address ->> 'number', '')), ''),
            nullif(p.address ->> 'postal_code', ''), nullif(p.address ->> 'city', ''), nullif(p.address ->> 'state', '')));
END $$;

-- Numbers and inserts a receipt receipt_prepare read (nothing when r is null); answers its number.
CREATE FUNCTION receipt_insert(org uuid, r jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    IF r IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO receipt_counters (organization_id, last_number) VALUES (org, 1)
    ON CONFLICT (organization_id) DO UPDATE SET last_number = receipt_counters.last_number + 1
    RETURNING last_number INTO n;
    INSERT INTO receipts (organization_id, number, transaction_id, donation_id, donor_id, amount_minor, currency, charged_at,
                          campaign_title, donor_name, donor_email, donor_tax_id, org_legal_name, org_tax_id, org_address)
    VALUES (org, n, (r ->> 'transaction_id')::uuid, (r ->> 'donation_id')::uuid, (r ->> 'donor_id')::uuid,
            (r ->> 'amount_minor')::bigint, r ->> 'currency', (r ->> 'charged_at')::timestamptz, r ->> 'campaign_title',
            r ->> 'donor_name', r ->> 'donor_email', r ->> 'donor_tax_id', r ->> 'org_legal_name', r ->> 'org_tax_id',
            r ->> 'org_address');
    RETURN n;
END $$;

-- 0590's, with the receipt read before the rollup rows are taken.
CREATE OR REPLACE FUNCTION charge_record(org uuid, p_tx uuid, p_donation uuid, p_period text, p_attempt smallint, p_amount bigint,
                              p_currency text, p_payment_method uuid, p_status text, p_detail text, p_payment text,
                              p_charged_at timestamptz, p_event uuid, p_event_type text, p_event_body jsonb,
                              p_donation_status text, p_next_charge_date date, p_processor uuid, p_family text,
                              p_fee_bps integer, p_fee bigint, p_descriptor text, p_annul_at timestamptz)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
    before jsonb;
    recorded uuid;
    prepared jsonb;
BEGIN
    before := dashboard_rollup_lock(org, ARRAY[p_donation]);
    IF p_period IS NULL THEN
        UPDATE transactions
        SET status = p_status, status_detail = NULLIF(p_detail, ''),
            gateway_payment_id = COALESCE(NULLIF(p_payment, ''), gateway_payment_id),
            charged_at = COALESCE(charged_at, p_charged_at), updated_at = now()
        WHERE organization_id = org AND donation_id = p_donation AND id = p_tx
        RETURNING id INTO recorded;
    ELSE
        SELECT id INTO recorded FROM transactions
        WHERE organization_id = org AND donation_id = p_donation AND period = p_period AND attempt = p_attempt;
        IF recorded <> p_tx THEN
            RETURN recorded;
        END IF;
        recorded := NULL;
    END IF;
    IF recorded IS NULL THEN
        -- One row per donation, period and attempt; the partial unique index transactions_one_approved_per_period
        -- refuses a second approved row in a period. EXCLUDED.updated_at is the column default: Citus allows only
        -- immutable functions in DO UPDATE.
        INSERT INTO transactions AS t (organization_id, id, donation_id, period, attempt, amount_minor, currency, status,
                                       status_detail, gateway_payment_id, payment_method_id, charged_at)
        VALUES (org, p_tx, p_donation, p_period, p_attempt, p_amount, p_currency, p_status, NULLIF(p_detail, ''),
                NULLIF(p_payment, ''), p_payment_method, p_charged_at)
        ON CONFLICT (organization_id, donation_id, period, attempt) DO UPDATE
        SET status = EXCLUDED.status, status_detail = EXCLUDED.status_detail,
            gateway_payment_id = COALESCE(EXCLUDED.gateway_payment_id, t.gateway_payment_id),
            charged_at = COALESCE(t.charged_at, EXCLUDED.charged_at), updated_at = EXCLUDED.updated_at
        RETURNING id INTO recorded;
        IF recorded <> p_tx THEN
            -- Written under another id since it was looked for, by a writer that did not hold the donation's lock.
            RAISE EXCEPTION 'charge_record: period % attempt % of donation % is transaction %, not %', p_period, p_attempt,
                p_donation, recorded, p_tx;
        END IF;
    END IF;

    PERFORM crm_enqueue(org, 'donation', p_donation);
    IF p_event IS NOT NULL THEN
        PERFORM webhook_enqueue(org, p_event, p_event_type, p_event_body);
    END IF;
    IF p_donation_status IS NOT NULL THEN
        UPDATE donations SET status = p_donation_status, next_charge_date = p_next_charge_date, updated_at = now()
        WHERE organization_id = org AND id = p_donation AND status = 'pending';
    END IF;
    IF p_annul_at IS NOT NULL THEN
        UPDATE receipts SET annulled_at = p_annul_at
        WHERE organization_id = org AND transaction_id = recorded AND annulled_at IS NULL;
    ELSIF p_status = 'approved' THEN
        PERFORM record_transaction_commission(org, recorded);
        IF p_processor IS NOT NULL THEN
            -- Recorded once: a retried record keeps the first.
            INSERT INTO transaction_processor_fees (organization_id, transaction_id, processor_id, family, fee_bps,
                                                    amount_minor, currency, statement_descriptor)
            VALUES (org, recorded, p_processor, p_family, p_fee_bps, p_fee, p_currency, p_descriptor)
            ON CONFLICT (organization_id, transaction_id) DO NOTHING;
        END IF;
    END IF;

    IF p_status = 'approved' THEN
        prepared := receipt_prepare(org, recorded);
    END IF;
    PERFORM dashboard_rollup_add(org, ARRAY[p_donation], before);
    PERFORM receipt_insert(org, prepared);
    RETURN recorded;
END $$;

DROP FUNCTION receipt_issue(uuid, uuid);
