-- Donation management (manage area): the donor fields of donor spec §3, the donor's discard mark,
-- and the indexes the donations list, its search and the transactions summary read through.
-- Citus rules hold: organization_id leads every primary key, unique constraint and foreign key; the
-- new indexes are plain (non-unique) indexes.

-- A "discarded donor" is a donor row with discarded_at set: the organisation stopped the person's
-- giving (POST /manage/api/donors/{uuid}/discard discards every donation of the donor that is not
-- discarded yet and marks the donor). Reactivating (POST …/reactivate) clears the mark, so the
-- person is active again and can be given new donations; discarded donations stay discarded
-- (a discard is irreversible, spec §4).
ALTER TABLE donors
    ADD COLUMN phone           text NOT NULL DEFAULT '',
    ADD COLUMN cellphone       text NOT NULL DEFAULT '',
    ADD COLUMN street          text NOT NULL DEFAULT '',
    ADD COLUMN city            text NOT NULL DEFAULT '',
    ADD COLUMN state           text NOT NULL DEFAULT '',
    ADD COLUMN country         text NOT NULL DEFAULT '',
    ADD COLUMN zipcode         text NOT NULL DEFAULT '',
    ADD COLUMN gender          text NOT NULL DEFAULT 'unknown' CHECK (gender IN ('female','male','other','unknown')),
    ADD COLUMN discarded_at    timestamptz,
    ADD COLUMN discard_reason  text,
    ADD COLUMN updated_at      timestamptz NOT NULL DEFAULT now();

-- Search by donor name, e-mail or document: one trigram index over a single lower-cased text, so
-- "ana per", "@gmail", "3456" all use it (a substring match a btree prefix index cannot serve).
-- The search narrows donors first, then donations join through donations_donor_idx.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
ALTER TABLE donors
    ADD COLUMN search text GENERATED ALWAYS AS (
        lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(uid_number, ''))) STORED;
CREATE INDEX donors_search_trgm_idx ON donors USING gin (search gin_trgm_ops);
-- Sorting by donor name.
CREATE INDEX donors_name_idx ON donors (organization_id, lower(last_name), lower(first_name));

-- The list: newest first by default, filters by status and frequency, sort by amount; the donor's
-- donations for the search join and donor discard.
CREATE INDEX donations_org_created_idx ON donations (organization_id, created_at DESC, id);
CREATE INDEX donations_org_status_created_idx ON donations (organization_id, status, created_at DESC);
CREATE INDEX donations_org_recurrence_created_idx ON donations (organization_id, recurrence, created_at DESC);
CREATE INDEX donations_org_amount_idx ON donations (organization_id, amount_minor, created_at DESC);
CREATE INDEX donations_donor_idx ON donations (organization_id, donor_id);

-- The transactions summary and its rows read one organisation's transactions of a date range.
CREATE INDEX transactions_org_created_idx ON transactions (organization_id, created_at)
    INCLUDE (status, currency, amount_minor);
