-- The dashboard rollup without triggers (issue 17): Citus distributes no table with triggers, so the
-- writers keep the rollup in their own transaction instead (sharddb.Queries.WithRollup): they lock the
-- donations they change, take those donations' contribution out, write, and put it back. The
-- contribution of a donation is everything 0080 counts for it and its transactions, so taking it out and
-- putting it back around any change of the donation or its transactions keeps the rollup exact.
-- A bulk loader writes its rows and calls dashboard_rollup_rebuild(org) afterwards.

DROP TRIGGER dashboard_rollup_insert ON transactions;
DROP TRIGGER dashboard_rollup_update ON transactions;
DROP TRIGGER dashboard_rollup_delete ON transactions;
DROP TRIGGER dashboard_rollup_insert ON donations;
DROP TRIGGER dashboard_rollup_update ON donations;
DROP TRIGGER dashboard_rollup_delete ON donations;
DROP TRIGGER dashboard_rollup_timezone ON organizations;
DROP FUNCTION dashboard_rollup_transactions();
DROP FUNCTION dashboard_rollup_donations();
DROP FUNCTION dashboard_rollup_timezone();
DROP FUNCTION dashboard_changed_rows(text);

-- Adds (sign 1) or takes out (sign -1) the contribution of an organisation's donations, as they are
-- now, with their transactions. Every statement names the organisation: one shard under Citus.
CREATE FUNCTION dashboard_rollup_apply(org uuid, ids uuid[], sign int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    src text;
BEGIN
    EXECUTE dashboard_raised_upsert(format($q$
        SELECT %s AS sign, t.organization_id, d.campaign_id, d.recurrence, t.currency,
               COALESCE(t.charged_at, t.created_at) AS at, t.amount_minor
        FROM transactions t JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
        WHERE t.organization_id = %L AND d.organization_id = %L AND t.donation_id = ANY(%L::uuid[])
          AND t.status = 'approved'
    $q$, sign, org, org, ids));
    src := format($q$
        SELECT %s AS sign, organization_id, campaign_id, recurrence, currency, created_at, status, discarded_at, discard_reason
        FROM donations WHERE organization_id = %L AND id = ANY(%L::uuid[])
    $q$, sign, org, ids);
    EXECUTE dashboard_new_upsert(src);
    EXECUTE dashboard_discards_upsert(src);
END $$;
