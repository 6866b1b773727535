-- Dashboard: a donation's pauses by donation, so the paused widget checks "is this current pause in
-- the history already?" with one index probe per paused donation (see api/dashboard Paused).
CREATE INDEX donation_versions_pauses_by_donation_idx
    ON donation_versions (organization_id, donation_id, created_at)
    WHERE field = 'status' AND after ->> 'status' = 'paused';
