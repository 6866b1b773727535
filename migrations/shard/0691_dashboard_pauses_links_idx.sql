-- The period's pause facts with their links (0690), read from the index alone by dashboard_widgets; it replaces
-- 0370's dashboard_pauses_period_idx (0692), whose columns it keeps for dashboard_pause_counts.
-- A file of its own: on Citus, CREATE INDEX on a distributed table fails in a migration of several statements.
CREATE INDEX dashboard_pauses_links_idx ON dashboard_pauses (organization_id, paused_at)
    INCLUDE (donation_id, reason, resumed_at, prev_q_at, next_q_at);
