-- 0671's index of every paused donation: 0681's holds the only ones the dashboard reads. A file of its own (Citus: no
-- statement may follow a DROP INDEX in a migration).
DROP INDEX donations_dashboard_lone_idx;
