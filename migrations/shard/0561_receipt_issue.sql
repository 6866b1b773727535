-- Issuing a receipt in one statement (issue 19): the number a transaction already has, else the organisation's next
-- one and the receipt, were three statements (and on Citus three round trips to the worker) while the counter row,
-- which every approval of the organisation takes, and the rollup rows stayed locked; now one, delegated to the worker
-- like the rollup's functions (tenants.delegatedFunctions). The data are 0420's (sharddb IssueReceipt's).
-- Its statements are router statements on the organisation's shards: Citus runs no INSERT … SELECT in a delegated
-- function, so the receipt's data is read first and inserted as values.
CREATE FUNCTION receipt_issue(org uuid, tx uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    r record;
BEGIN
    SELECT number INTO n FROM receipts WHERE organization_id = org AND transaction_id = tx;
    IF FOUND THEN
        RETURN n;
    END IF;
    SELECT t.id, t.donation_id, d.donor_id, t.amount_minor, t.currency, coalesce(t.charged_at, t.created_at) AS charged_at,
           c.title, trim(dn.first_name || ' ' || dn.last_name) AS donor_name, dn.email,
           trim(coalesce(dn.uid_type, '') || ' ' || coalesce(dn.uid_number, '')) AS donor_tax_id,
           coalesce(nullif(p.legal_name, ''), o.name) AS org_legal_name,
           trim(coalesce(o.uid_type, '') || ' ' || coalesce(o.uid, '')) AS org_tax_id,
           concat_ws(', ', nullif(trim(coalesce(p.address ->> 'street', '') || ' ' || coalesce(p.address ->> 'number', '')), ''),
                     nullif(p.address ->> 'postal_code', ''), nullif(p.address ->> 'city', ''), nullif(p.address ->> 'state', ''))
               AS org_address
    INTO r
    FROM transactions t
    JOIN donations d ON d.organization_id = org AND d.id = t.donation_id
    JOIN donors dn ON dn.organization_id = org AND dn.id = d.donor_id
    JOIN campaigns c ON c.organization_id = org AND c.id = d.campaign_id
    JOIN organizations o ON o.organization_id = org
    LEFT JOIN organization_profiles p ON p.organization_id = org
    WHERE t.organization_id = org AND t.id = tx AND t.status = 'approved';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'receipt: transaction % is not approved', tx;
    END IF;
    INSERT INTO receipt_counters (organization_id, last_number) VALUES (org, 1)
    ON CONFLICT (organization_id) DO UPDATE SET last_number = receipt_counters.last_number + 1
    RETURNING last_number INTO n;
    INSERT INTO receipts (organization_id, number, transaction_id, donation_id, donor_id, amount_minor, currency, charged_at,
                          campaign_title, donor_name, donor_email, donor_tax_id, org_legal_name, org_tax_id, org_address)
    VALUES (org, n, r.id, r.donation_id, r.donor_id, r.amount_minor, r.currency, r.charged_at, r.title, r.donor_name, r.email,
            r.donor_tax_id, r.org_legal_name, r.org_tax_id, r.org_address);
    RETURN n;
END $$;
