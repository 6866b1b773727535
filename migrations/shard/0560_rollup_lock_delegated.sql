-- The rollup's writers in fewer round trips (issue 19). A writer locked its donations and read their
-- contribution in two statements; dashboard_rollup_lock does both in one. On Citus the rollup's functions
-- run whole on the worker that holds the organisation's shards (tenants.delegatedFunctions distributes
-- them by org, co-located with organizations, delegated also inside a transaction), so each call is one
-- round trip from the coordinator rather than one per statement in it; on plain PostgreSQL they run as
-- they are.

-- Locks the organisation's donations ids (NO KEY UPDATE, in id order, as every writer does) and answers
-- their contribution (dashboard_rollup_contribution), read by a statement after the lock, so it counts
-- what a writer that held the lock committed.
CREATE FUNCTION dashboard_rollup_lock(org uuid, ids uuid[]) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM donations WHERE organization_id = org AND id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
    RETURN dashboard_rollup_contribution(org, ids);
END $$;
