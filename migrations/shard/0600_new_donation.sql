-- A new donation's writes in fewer statements (issue 19). internal/newdonation wrote a form's donation as up to ten
-- statements in its transaction: the donor (insert, else read by e-mail, then a new donor's form fields), the
-- payment method, the donation and its read back, then the CRM changes of the donor and of the donation, the
-- donation.created event and the first transaction. On Citus each went to the coordinator, which planned it and sent
-- it on to the worker. These two functions make the donor's writes and the queued rows each one call, delegated to
-- the worker that holds the organisation (tenants.delegatedFunctions). They write the rows sharddb's InsertFormDonor,
-- FormDonorByEmail, SetFormDonorFields, EnqueueCRMChange, EnqueueWebhookEvent and InsertFirstTransaction wrote.

-- The donor with e-mail p_email: a new one (p_id, with the form's related fields p_fields: column → value), or the
-- existing one, left as it is (only the manage area changes a donor). A concurrent submission with the same e-mail
-- makes the insert wait for it and then write nothing; the read after it, a statement of its own, sees its donor.
CREATE FUNCTION donor_link(org uuid, p_id uuid, p_email text, p_first_name text, p_last_name text, p_uid_type text,
                           p_uid_number text, p_fields jsonb) RETURNS uuid
LANGUAGE plpgsql AS $$
DECLARE
    donor uuid;
BEGIN
    INSERT INTO donors (organization_id, id, email, first_name, last_name, uid_type, uid_number)
    VALUES (org, p_id, p_email, p_first_name, p_last_name, nullif(p_uid_type, ''), nullif(p_uid_number, ''))
    ON CONFLICT (organization_id, email) DO NOTHING
    RETURNING id INTO donor;
    IF donor IS NULL THEN
        SELECT id INTO STRICT donor FROM donors WHERE organization_id = org AND email = p_email;
        RETURN donor;
    END IF;
    IF p_fields IS NOT NULL THEN
        UPDATE donors
        SET phone = coalesce(p_fields->>'phone', phone), cellphone = coalesce(p_fields->>'cellphone', cellphone),
            street = coalesce(p_fields->>'street', street), city = coalesce(p_fields->>'city', city),
            state = coalesce(p_fields->>'state', state), zipcode = coalesce(p_fields->>'zipcode', zipcode),
            gender = coalesce(p_fields->>'gender', gender), updated_at = now()
        WHERE organization_id = org AND id = donor;
    END IF;
    RETURN donor;
END $$;

-- What a written donation queues: the CRM's changes of its donor and of itself, its donation.created event (p_event
-- null: none, when a concurrent twin with the same key wrote the donation) and its first transaction, pending or
-- planned, once (p_tx is derived from the donation's id).
CREATE FUNCTION donation_queue(org uuid, p_donor uuid, p_donation uuid, p_event uuid, p_event_type text,
                               p_event_body jsonb, p_tx uuid, p_period text, p_amount bigint, p_currency text,
                               p_status text, p_payment_method uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM crm_enqueue(org, 'donor', p_donor);
    PERFORM crm_enqueue(org, 'donation', p_donation);
    IF p_event IS NOT NULL THEN
        PERFORM webhook_enqueue(org, p_event, p_event_type, p_event_body);
    END IF;
    INSERT INTO transactions (organization_id, id, donation_id, period, amount_minor, currency, status, attempt,
                              payment_method_id)
    VALUES (org, p_tx, p_donation, p_period, p_amount, p_currency, p_status, 1, p_payment_method)
    ON CONFLICT (organization_id, id) DO NOTHING;
END $$;
