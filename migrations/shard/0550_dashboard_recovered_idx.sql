-- The dashboard's recovered widget (issue 19): the period's new cards given by donors in the donor portal are an
-- index-only range read, not a scan of the organisation's whole version history per request.
CREATE INDEX donation_versions_donor_cards_idx ON donation_versions (organization_id, created_at)
    INCLUDE (donation_id)
    WHERE field = 'payment_method' AND actor LIKE 'donor:%';
