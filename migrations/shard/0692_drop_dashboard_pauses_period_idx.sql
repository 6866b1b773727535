-- 0691's index holds what 0370's did, and the links.
DROP INDEX dashboard_pauses_period_idx;
