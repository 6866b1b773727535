-- A charge's record in one statement (issues 17 and 19). charge.Record wrote an outcome in a transaction of about six
-- round trips: BEGIN; the rollup's lock; the transaction row; a pipeline of the CRM and webhook queues, the first
-- charge's donation and the receipt's annulment or the commission and processor fee; a pipeline of the rollup's change
-- and the receipt; COMMIT. On Citus each went to the coordinator, which planned it and sent it on to the worker, while
-- the organisation's rollup rows and receipt counter stayed locked. charge_record makes the same writes, in the same
-- order and lock order, through the same functions (0560, 0561, 0570, 0301's commission): delegated to the worker
-- (tenants.delegatedFunctions) and sent alone, as a transaction of its own, it is one round trip. What the application
-- decides (the webhook event and its body, the first charge's donation status, the processor's fee, the annulment's
-- time) comes as arguments; null ones write nothing.

-- Citus runs no INSERT … SELECT inside a delegated function: the commission (0301's statement) reads the transaction
-- and its organisation first and inserts values. Same rows, same answer (the amount, or null when none is owed).
CREATE OR REPLACE FUNCTION record_transaction_commission(p_org uuid, p_tx uuid) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    amount bigint;
BEGIN
    SELECT o.commission_bps, (t.amount_minor * o.commission_bps + 5000) / 10000 AS amount_minor, t.currency
    INTO r
    FROM transactions t
    JOIN organizations o ON o.organization_id = p_org
    WHERE t.organization_id = p_org AND t.id = p_tx AND t.status = 'approved'
      AND o.commission_bps > 0 AND o.trial_ends_at IS NOT NULL
      AND coalesce(t.charged_at, t.created_at) >= o.trial_ends_at;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO transaction_commissions (organization_id, transaction_id, commission_bps, amount_minor, currency)
    VALUES (p_org, p_tx, r.commission_bps, r.amount_minor, r.currency)
    ON CONFLICT (organization_id, transaction_id) DO UPDATE SET amount_minor = excluded.amount_minor
    RETURNING amount_minor INTO amount;
    RETURN amount;
END $$;

-- Records outcome p_status of the charge of transaction p_tx, of donation p_donation: the row written before the charge
-- (a one-time donation's, found by id), else the row of the donation's period and attempt (inserted, or settled when the
-- form or an earlier try wrote it). It answers the transaction recorded. When the period's attempt is a row of another
-- id (the form's first transaction is its first period's first attempt), it writes nothing and answers that id: the
-- caller records again under it, with the webhook event of that transaction.
-- The writes, in lock order: the donation (dashboard_rollup_lock), the transaction, the queues (crm_enqueue,
-- webhook_enqueue: p_event null queues no event), the pending donation of a first charge (p_donation_status null:
-- none; the statement of sharddb's SettleFirstChargeDonation, which a planned first charge's activation runs), a refund's or chargeback's annulled receipt (p_annul_at) or an approval's commission and processor fee
-- (p_processor null: the connected gateway's, no fee), the rollup rows (dashboard_rollup_add) and last an approval's
-- receipt number (receipt_issue), the row every approval of the organisation takes.
CREATE FUNCTION charge_record(org uuid, p_tx uuid, p_donation uuid, p_period text, p_attempt smallint, p_amount bigint,
                              p_currency text, p_payment_method uuid, p_status text, p_detail text, p_payment text,
                              p_charged_at timestamptz, p_event uuid, p_event_type text, p_event_body jsonb,
                              p_donation_status text, p_next_charge_date date, p_processor uuid, p_family text,
                              p_fee_bps integer, p_fee bigint, p_descriptor text, p_annul_at timestamptz)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
    before jsonb;
    recorded uuid;
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

    PERFORM dashboard_rollup_add(org, ARRAY[p_donation], before);
    IF p_status = 'approved' THEN
        PERFORM receipt_issue(org, recorded);
    END IF;
    RETURN recorded;
END $$;
