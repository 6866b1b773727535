-- A first charge's receipt e-mail read the receipt charge_record had just issued back from the shard (receipt_mail,
-- one more delegated call of six lookups after every approval, issue 19). charge_record now answers it: an object of
-- the transaction recorded ('id') and the receipt it issued ('receipt', null when this call issued none: a retried
-- record, or no approval), which is receipt_prepare's object with its number. receipt_prepare adds what the e-mail
-- says besides the receipt (the donor's first name, the organisation's locale, the campaign's slug), which it read
-- already; receipt_insert ignores them. receipt_mail stays for a receipt e-mailed later (the first-charge guard, a
-- collection's retried activity). Otherwise as 0630: same rows, same numbers, same lock order.

CREATE OR REPLACE FUNCTION receipt_prepare(org uuid, tx uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    t record;
    d record;
    dn record;
    o record;
    p record;
    c record;
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
    SELECT campaigns.title, campaigns.slug INTO c FROM campaigns WHERE organization_id = org AND id = d.campaign_id;
    SELECT name, uid_type, uid, locale INTO o FROM organizations WHERE organization_id = org;
    SELECT legal_name, address INTO p FROM organization_profiles WHERE organization_id = org;
    RETURN jsonb_build_object('transaction_id', t.id, 'donation_id', t.donation_id, 'donor_id', d.donor_id,
        'amount_minor', t.amount_minor, 'currency', t.currency, 'charged_at', t.charged_at, 'campaign_title', c.title,
        'donor_name', trim(dn.first_name || ' ' || dn.last_name), 'donor_email', dn.email,
        'donor_tax_id', trim(coalesce(dn.uid_type, '') || ' ' || coalesce(dn.uid_number, '')),
        'org_legal_name', coalesce(nullif(p.legal_name, ''), o.name),
        'org_tax_id', trim(coalesce(o.uid_type, '') || ' ' || coalesce(o.uid, '')),
        'org_address', concat_ws(', ',
            nullif(trim(coalesce(p.address ->> 'street', '') || ' ' || coalesce(p.address ->> 'number', '')), ''),
            nullif(p.address ->> 'postal_code', ''), nullif(p.address ->> 'city', ''), nullif(p.address ->> 'state', '')),
        'first_name', coalesce(dn.first_name, ''), 'org_locale', coalesce(o.locale, 'es'), 'slug', coalesce(c.slug, ''));
END $$;

DROP FUNCTION charge_record(uuid, uuid, uuid, text, smallint, bigint, text, uuid, text, text, text, timestamptz, uuid, text,
                            jsonb, text, date, uuid, text, integer, bigint, text, timestamptz);

CREATE FUNCTION charge_record(org uuid, p_tx uuid, p_donation uuid, p_period text, p_attempt smallint, p_amount bigint,
                              p_currency text, p_payment_method uuid, p_status text, p_detail text, p_payment text,
                              p_charged_at timestamptz, p_event uuid, p_event_type text, p_event_body jsonb,
                              p_donation_status text, p_next_charge_date date, p_processor uuid, p_family text,
                              p_fee_bps integer, p_fee bigint, p_descriptor text, p_annul_at timestamptz)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    before jsonb;
    recorded uuid;
    prepared jsonb;
    n bigint;
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
            RETURN jsonb_build_object('id', recorded);
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
    n := receipt_insert(org, prepared);
    RETURN jsonb_build_object('id', recorded, 'receipt', prepared || jsonb_build_object('number', n));
END $$;
