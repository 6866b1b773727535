-- Dashboard (donor spec §2 screen 5, api/dashboard): indexes so every widget reads only the rows of
-- its period, on an organisation with millions of transactions. No unique index, so the Citus rule
-- (organization_id in every PK/unique/FK) is untouched; every index leads with organization_id.

-- Total raised, average, the raised series: approved charges by the moment they were charged
-- (created_at when a row has no charged_at). INCLUDE makes it an index-only scan without filters.
CREATE INDEX transactions_dashboard_approved_idx
    ON transactions (organization_id, (COALESCE(charged_at, created_at)))
    INCLUDE (donation_id, amount_minor, currency)
    WHERE status = 'approved';

-- New donations and their series: donations by creation time, with the filter columns.
CREATE INDEX donations_dashboard_created_idx
    ON donations (organization_id, created_at)
    INCLUDE (campaign_id, recurrence, status);

-- Discarded donations and discard reasons.
CREATE INDEX donations_dashboard_discarded_idx
    ON donations (organization_id, discarded_at)
    INCLUDE (campaign_id, recurrence, discard_reason)
    WHERE discarded_at IS NOT NULL;

-- The current pause of donations still paused (rows written without a version history count too).
CREATE INDEX donations_dashboard_paused_idx
    ON donations (organization_id, paused_since)
    WHERE status = 'paused';

-- Pause and restore events in the version history (workflows/collection writes field 'status' with
-- {"status": "paused", "paused_reason": …} after a pause and before {"status": "paused"} on restore).
CREATE INDEX donation_versions_pauses_idx
    ON donation_versions (organization_id, created_at)
    INCLUDE (donation_id)
    WHERE field = 'status' AND after ->> 'status' = 'paused';
CREATE INDEX donation_versions_restores_idx
    ON donation_versions (organization_id, donation_id, created_at)
    WHERE field = 'status' AND before ->> 'status' = 'paused' AND after ->> 'status' = 'active';

-- Visits by day across campaigns (the primary key leads with campaign_id).
CREATE INDEX campaign_visits_day_idx ON campaign_visits (organization_id, day) INCLUDE (campaign_id, visits);
