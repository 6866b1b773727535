-- Pause facts for the dashboard (issue 19): one row per pause of a donation, with the time of its first
-- restore, so "paused and not resumed within 7 days as of now" is a range read of the period's pauses
-- (dashboard_pauses_period_idx, index-only) instead of a scan of the version history per request.
--
-- A pause is a version row of field 'status' whose after.status is 'paused' (paused_at: its
-- created_at); its restore is the first later version row with before.status 'paused' and
-- after.status 'active' (resumed_at; NULL while there is none). history.Record keeps the facts in
-- the transaction that records the version (RecordDashboardPause, RecordDashboardResume), and
-- dashboard_rollup_rebuild(org) now recomputes them too, for bulk loaders that write history directly.

CREATE TABLE dashboard_pauses (
    organization_id  uuid NOT NULL,
    donation_id      uuid NOT NULL,
    paused_at        timestamptz NOT NULL,
    reason           text,
    resumed_at       timestamptz,
    PRIMARY KEY (organization_id, donation_id, paused_at)
);

CREATE INDEX dashboard_pauses_period_idx ON dashboard_pauses (organization_id, paused_at)
    INCLUDE (donation_id, reason, resumed_at);

-- Recomputes an organisation's pause facts from its version history.
CREATE FUNCTION dashboard_pauses_rebuild(org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format($q$DELETE FROM dashboard_pauses WHERE organization_id = %L$q$, org);
    EXECUTE format($q$
        INSERT INTO dashboard_pauses (organization_id, donation_id, paused_at, reason, resumed_at)
        SELECT v.organization_id, v.donation_id, v.created_at, v.after ->> 'paused_reason',
               (SELECT min(r.created_at) FROM donation_versions r
                WHERE r.organization_id = %L AND r.donation_id = v.donation_id AND r.field = 'status'
                  AND r.before ->> 'status' = 'paused' AND r.after ->> 'status' = 'active' AND r.created_at > v.created_at)
        FROM donation_versions v
        WHERE v.organization_id = %L AND v.field = 'status' AND v.after ->> 'status' = 'paused'
        ON CONFLICT (organization_id, donation_id, paused_at) DO NOTHING
    $q$, org, org);
END $$;

-- dashboard_rollup_rebuild(org): 0080's rebuild of the money, new-donation and discard rollup, and the pause facts.
CREATE OR REPLACE FUNCTION dashboard_rollup_rebuild(org uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    src text;
BEGIN
    DELETE FROM dashboard_daily WHERE organization_id = org;
    DELETE FROM dashboard_daily_discards WHERE organization_id = org;
    EXECUTE dashboard_raised_upsert(format($q$
        SELECT 1 AS sign, t.organization_id, d.campaign_id, d.recurrence, t.currency,
               COALESCE(t.charged_at, t.created_at) AS at, t.amount_minor
        FROM transactions t JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
        WHERE t.organization_id = %L AND t.status = 'approved'
    $q$, org));
    src := format($q$
        SELECT 1 AS sign, organization_id, campaign_id, recurrence, currency, created_at, status, discarded_at, discard_reason
        FROM donations WHERE organization_id = %L
    $q$, org);
    EXECUTE dashboard_new_upsert(src);
    EXECUTE dashboard_discards_upsert(src);
    PERFORM dashboard_pauses_rebuild(org);
END $$;

-- The facts of the history already written (none on a fresh database), one organisation at a time.
DO $$
DECLARE
    org uuid;
BEGIN
    FOR org IN SELECT organization_id FROM organizations LOOP
        PERFORM dashboard_pauses_rebuild(org);
    END LOOP;
END $$;
