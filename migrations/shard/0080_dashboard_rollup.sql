-- Dashboard rollup (issue 6 "Scale"): per organisation, day in the organisation's time zone,
-- campaign and frequency, the sums the dashboard's money, new-donation and discard widgets need, so
-- api/dashboard reads days × campaigns rows instead of every transaction and donation.
--
-- Kept by triggers rather than by each writer: the rows are written by the donation form, the
-- collection workflow, the manage actions, seeds and tests' fixtures, and a trigger runs in the
-- writing transaction of every one of them, so the rollup commits or rolls back with the rows. The
-- triggers are per statement over the transition tables: a bulk INSERT … SELECT costs one grouped
-- upsert, not one per row; upserts go in key order so concurrent writers lock rollup rows in the same
-- order (PostgreSQL allows no column list on a trigger with transition tables, so an update that
-- changes nothing the rollup reads costs one empty grouped query). Under Citus the tables are co-located by organization_id and every statement stays within
-- one organisation, so the triggers touch only co-located shards.
--
-- Definitions (the same as the widgets read from the rows before):
--   raised: approved transactions by the day of COALESCE(charged_at, created_at), per currency, with
--           the donation's current campaign and frequency;
--   new:    donations by the day of created_at, except pending and rejected ones;
--   discards: donations by the day of discarded_at, per reason ('' when none was given).
-- Changing an organisation's time zone rebuilds its rollup. A bulk loader may SET LOCAL
-- aporta.dashboard_rollup = 'deferred' to skip the triggers and then call
-- dashboard_rollup_rebuild(org) itself (deploy/seedlarge does, for the organisation it creates).

CREATE TABLE dashboard_daily (
    organization_id  uuid NOT NULL,
    day              date NOT NULL,
    campaign_id      uuid NOT NULL,
    recurrence       smallint NOT NULL,
    currency         char(3) NOT NULL,
    raised_minor     bigint NOT NULL DEFAULT 0,
    raised_count     bigint NOT NULL DEFAULT 0,
    new_donations    bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (organization_id, day, campaign_id, recurrence, currency)
);

CREATE TABLE dashboard_daily_discards (
    organization_id  uuid NOT NULL,
    day              date NOT NULL,
    campaign_id      uuid NOT NULL,
    recurrence       smallint NOT NULL,
    reason           text NOT NULL,
    donations        bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (organization_id, day, campaign_id, recurrence, reason)
);

-- The upserts adding a source's contribution, as statements for the caller to EXECUTE: a trigger's
-- transition tables are visible only to statements of the trigger function itself.

-- Raised: src is a query of (sign, organization_id, campaign_id, recurrence, currency, at,
-- amount_minor) over approved transactions, sign +1 for rows that count, -1 for rows that no longer do.
CREATE FUNCTION dashboard_raised_upsert(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
    SELECT format($q$
        INSERT INTO dashboard_daily AS r (organization_id, day, campaign_id, recurrence, currency, raised_minor, raised_count)
        SELECT s.organization_id, (s.at AT TIME ZONE o.timezone)::date, s.campaign_id, s.recurrence, s.currency,
               sum(s.sign * s.amount_minor), sum(s.sign)
        FROM (%s) s JOIN organizations o ON o.organization_id = s.organization_id
        GROUP BY 1, 2, 3, 4, 5
        HAVING sum(s.sign) <> 0 OR sum(s.sign * s.amount_minor) <> 0
        ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (organization_id, day, campaign_id, recurrence, currency) DO UPDATE
        SET raised_minor = r.raised_minor + EXCLUDED.raised_minor, raised_count = r.raised_count + EXCLUDED.raised_count
    $q$, src)
$f$;

-- New donations and discards: src is a query of (sign, organization_id, campaign_id, recurrence,
-- currency, created_at, status, discarded_at, discard_reason) over donations.
CREATE FUNCTION dashboard_new_upsert(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
    SELECT format($q$
        INSERT INTO dashboard_daily AS r (organization_id, day, campaign_id, recurrence, currency, new_donations)
        SELECT s.organization_id, (s.created_at AT TIME ZONE o.timezone)::date, s.campaign_id, s.recurrence, s.currency,
               sum(s.sign)
        FROM (%s) s JOIN organizations o ON o.organization_id = s.organization_id
        WHERE s.status NOT IN ('pending', 'rejected')
        GROUP BY 1, 2, 3, 4, 5
        HAVING sum(s.sign) <> 0
        ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (organization_id, day, campaign_id, recurrence, currency) DO UPDATE
        SET new_donations = r.new_donations + EXCLUDED.new_donations
    $q$, src)
$f$;

CREATE FUNCTION dashboard_discards_upsert(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
    SELECT format($q$
        INSERT INTO dashboard_daily_discards AS r (organization_id, day, campaign_id, recurrence, reason, donations)
        SELECT s.organization_id, (s.discarded_at AT TIME ZONE o.timezone)::date, s.campaign_id, s.recurrence,
               COALESCE(s.discard_reason, ''), sum(s.sign)
        FROM (%s) s JOIN organizations o ON o.organization_id = s.organization_id
        WHERE s.discarded_at IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5
        HAVING sum(s.sign) <> 0
        ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (organization_id, day, campaign_id, recurrence, reason) DO UPDATE
        SET donations = r.donations + EXCLUDED.donations
    $q$, src)
$f$;

-- The rows of the statement with their sign: new rows count, old rows are taken back.
CREATE FUNCTION dashboard_changed_rows(op text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE op
        WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
        WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
        ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows'
    END
$$;

CREATE FUNCTION dashboard_rollup_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('aporta.dashboard_rollup', true) = 'deferred' THEN
        RETURN NULL;
    END IF;
    -- The donation's campaign and frequency as they are now: the donations trigger moves the raised
    -- money when they change. Locking the donation makes a concurrent change of them wait for this
    -- transaction (or this one read the changed donation), so neither misses the other's money. NO
    -- KEY UPDATE rather than SHARE: the charging transaction updates its donation next, and two
    -- share locks upgraded at once would deadlock; the foreign keys' KEY SHARE does not conflict.
    EXECUTE dashboard_raised_upsert(format($q$
        SELECT t.sign, t.organization_id, d.campaign_id, d.recurrence, t.currency,
               COALESCE(t.charged_at, t.created_at) AS at, t.amount_minor
        FROM (%s) t JOIN donations d ON d.organization_id = t.organization_id AND d.id = t.donation_id
        WHERE t.status = 'approved'
        FOR NO KEY UPDATE OF d
    $q$, dashboard_changed_rows(TG_OP)));
    RETURN NULL;
END $$;

CREATE FUNCTION dashboard_rollup_donations() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    src text;
BEGIN
    IF current_setting('aporta.dashboard_rollup', true) = 'deferred' THEN
        RETURN NULL;
    END IF;
    src := format($q$
        SELECT sign, organization_id, campaign_id, recurrence, currency, created_at, status, discarded_at, discard_reason
        FROM (%s) d
    $q$, dashboard_changed_rows(TG_OP));
    EXECUTE dashboard_new_upsert(src);
    EXECUTE dashboard_discards_upsert(src);
    -- A donation converted to monthly (or moved to another campaign) takes its raised money along.
    -- Inserted donations have no transactions yet and deleted ones none left (foreign key).
    IF TG_OP = 'UPDATE' THEN
        EXECUTE dashboard_raised_upsert($q$
            SELECT m.sign, m.organization_id, m.campaign_id, m.recurrence, t.currency,
                   COALESCE(t.charged_at, t.created_at) AS at, t.amount_minor
            FROM (SELECT 1 AS sign, n.organization_id, n.id, n.campaign_id, n.recurrence
                  FROM new_rows n JOIN old_rows o ON o.organization_id = n.organization_id AND o.id = n.id
                  WHERE (o.campaign_id, o.recurrence) IS DISTINCT FROM (n.campaign_id, n.recurrence)
                  UNION ALL
                  SELECT -1, o.organization_id, o.id, o.campaign_id, o.recurrence
                  FROM new_rows n JOIN old_rows o ON o.organization_id = n.organization_id AND o.id = n.id
                  WHERE (o.campaign_id, o.recurrence) IS DISTINCT FROM (n.campaign_id, n.recurrence)) m
            JOIN transactions t ON t.organization_id = m.organization_id AND t.donation_id = m.id
            WHERE t.status = 'approved'
        $q$);
    END IF;
    RETURN NULL;
END $$;

-- Recomputes an organisation's rollup from its rows.
CREATE FUNCTION dashboard_rollup_rebuild(org uuid) RETURNS void LANGUAGE plpgsql AS $$
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
END $$;

CREATE FUNCTION dashboard_rollup_timezone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM dashboard_rollup_rebuild(NEW.organization_id);
    RETURN NULL;
END $$;

CREATE TRIGGER dashboard_rollup_insert AFTER INSERT ON transactions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_transactions();
CREATE TRIGGER dashboard_rollup_update AFTER UPDATE ON transactions
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_transactions();
CREATE TRIGGER dashboard_rollup_delete AFTER DELETE ON transactions
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_transactions();

CREATE TRIGGER dashboard_rollup_insert AFTER INSERT ON donations
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_donations();
CREATE TRIGGER dashboard_rollup_update AFTER UPDATE ON donations
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_donations();
CREATE TRIGGER dashboard_rollup_delete AFTER DELETE ON donations
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_donations();

CREATE TRIGGER dashboard_rollup_timezone AFTER UPDATE OF timezone ON organizations
    FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone) EXECUTE FUNCTION dashboard_rollup_timezone();

-- Organisations with rows before this migration.
SELECT dashboard_rollup_rebuild(organization_id) FROM organizations;
