-- The receipt e-mail's data in one delegated call (issue 19): sharddb's ChargeReceiptMail was one statement, but a
-- statement of receipts joined to transactions with three scalar subqueries, which Citus planned again on every charge
-- (about 3 ms of the worker's time each under load). Here each row is read by its key, and each of these single-table
-- lookups keeps its plan across calls. Same answer: the receipt of the charge's transaction, or of its period's
-- approved transaction (a monthly donation's first period may be settled on the form's first transaction), with the
-- organisation's locale, the donor's first name and the campaign's slug; null when there is none. An object rather than
-- a row: sqlc reads no function's columns.
CREATE FUNCTION receipt_mail(org uuid, p_donation uuid, p_tx uuid, p_period text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    r record;
    t record;
    d record;
    locale text;
    first_name text;
    slug text;
BEGIN
    SELECT x.number, x.transaction_id, x.donor_email, x.org_legal_name, x.campaign_title, x.amount_minor, x.currency
    INTO r
    FROM receipts x WHERE x.organization_id = org AND x.transaction_id = p_tx AND x.donation_id = p_donation;
    IF NOT FOUND AND p_period IS NOT NULL THEN
        -- The approval is checked on the rows found (0610): the period's attempts are read by the donation's key.
        FOR t IN SELECT x.id, x.status FROM transactions x
                 WHERE x.organization_id = org AND x.donation_id = p_donation AND x.period = p_period LOOP
            CONTINUE WHEN t.status <> 'approved';
            SELECT x.number, x.transaction_id, x.donor_email, x.org_legal_name, x.campaign_title, x.amount_minor, x.currency
            INTO r
            FROM receipts x WHERE x.organization_id = org AND x.transaction_id = t.id AND x.donation_id = p_donation;
            EXIT WHEN FOUND;
        END LOOP;
    END IF;
    IF r.number IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT x.donor_id, x.campaign_id INTO d FROM donations x WHERE x.organization_id = org AND x.id = p_donation;
    SELECT x.locale INTO locale FROM organizations x WHERE x.organization_id = org;
    SELECT x.first_name INTO first_name FROM donors x WHERE x.organization_id = org AND x.id = d.donor_id;
    SELECT x.slug INTO slug FROM campaigns x WHERE x.organization_id = org AND x.id = d.campaign_id;
    RETURN jsonb_build_object('number', r.number, 'transaction_id', r.transaction_id, 'donor_email', r.donor_email,
        'org_legal_name', r.org_legal_name, 'campaign_title', r.campaign_title, 'amount_minor', r.amount_minor,
        'currency', r.currency, 'org_locale', coalesce(locale, 'es'), 'first_name', coalesce(first_name, ''),
        'slug', coalesce(slug, ''));
END $$;
