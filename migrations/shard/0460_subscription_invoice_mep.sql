-- What an ARS subscription invoice was charged at (issue #14; organisation-and-account §9 "MEP note"):
-- plans are priced in US dollars and Argentine organisations pay them in pesos at the dollar MEP rate
-- in force when the period is charged. The invoice keeps the list price and the rate it was converted
-- at, with the rate's source and day, which its page and PDF show. NULL on invoices in other currencies.
ALTER TABLE subscription_invoices
    ADD COLUMN usd_price_minor bigint CHECK (usd_price_minor > 0),
    ADD COLUMN mep_rate_minor bigint CHECK (mep_rate_minor > 0),
    ADD COLUMN mep_source text,
    ADD COLUMN mep_as_of date,
    ADD CONSTRAINT subscription_invoices_mep CHECK (
        (usd_price_minor IS NULL) = (mep_rate_minor IS NULL)
        AND (mep_rate_minor IS NULL) = (mep_source IS NULL)
        AND (mep_source IS NULL) = (mep_as_of IS NULL));
