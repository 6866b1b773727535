-- donations_dashboard_lone_idx (0671) answers what this index of 0070 did. A file of its own, as 0671.
DROP INDEX donations_dashboard_paused_idx;
