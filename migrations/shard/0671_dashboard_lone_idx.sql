-- The period's paused donations with what tells whether their pause has a fact (0670), read from the index alone.
-- A file of its own: on Citus, CREATE INDEX on a distributed table fails in a migration of several statements
-- ("cannot insert multiple commands into a prepared statement").
CREATE INDEX donations_dashboard_lone_idx ON donations (organization_id, paused_since)
    INCLUDE (pause_fact_at, id, paused_reason, campaign_id, recurrence, agency_id)
    WHERE status = 'paused';
