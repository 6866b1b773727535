-- The paused donations whose pause may have no fact (0670, 0680), alone: the dashboard reads them on every request to
-- choose how it counts the paused widget, and they are rare (a donation paused outside the collection workflow), so
-- the index is nearly empty where 0671's held every paused donation. The predicate is 0680's condition, written with
-- immutable operators (timestamptz - timestamptz) as an index predicate must be.
-- A file of its own: on Citus, CREATE INDEX on a distributed table fails in a migration of several statements.
CREATE INDEX donations_dashboard_lone_only_idx ON donations (organization_id, paused_since)
    INCLUDE (id, paused_reason, campaign_id, recurrence, agency_id)
    WHERE status = 'paused'
      AND (pause_fact_at IS NULL OR pause_fact_at - paused_since NOT BETWEEN interval '-1 minute' AND interval '1 minute');
