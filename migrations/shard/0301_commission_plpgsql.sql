-- record_transaction_commission in PL/pgSQL (issue 17): Citus cannot plan a statement on distributed
-- tables inside an SQL-language function that takes parameters ("could not create distributed plan");
-- PL/pgSQL hands each statement to the planner with its parameters. Same statement as 0050.
CREATE OR REPLACE FUNCTION record_transaction_commission(p_org uuid, p_tx uuid) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    amount bigint;
BEGIN
    INSERT INTO transaction_commissions (organization_id, transaction_id, commission_bps, amount_minor, currency)
    SELECT t.organization_id, t.id, o.commission_bps, (t.amount_minor * o.commission_bps + 5000) / 10000, t.currency
    FROM transactions t
    JOIN organizations o ON o.organization_id = t.organization_id
    WHERE t.organization_id = p_org AND o.organization_id = p_org AND t.id = p_tx AND t.status = 'approved'
      AND o.commission_bps > 0 AND o.trial_ends_at IS NOT NULL
      AND coalesce(t.charged_at, t.created_at) >= o.trial_ends_at
    ON CONFLICT (organization_id, transaction_id) DO UPDATE SET amount_minor = excluded.amount_minor
    RETURNING amount_minor INTO amount;
    RETURN amount;
END $$;
