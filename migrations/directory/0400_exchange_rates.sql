-- The dollar MEP rate the ARS note shows (organisation-and-account §9): the plans' list prices are
-- in USD and Argentine organisations pay them in pesos at that rate (issue #14). Each quote the
-- rate provider gave (the cache) and each staff override is a row; the rate in force is the one of
-- the latest day, a staff override winning the day it names. Append-only: the staff rows, with who
-- and why, are the override's audit log.
CREATE TABLE exchange_rates (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    currency      char(3) NOT NULL,   -- what one US dollar costs in this currency
    rate_minor    bigint NOT NULL CHECK (rate_minor > 0), -- in the currency's minor units
    source        text NOT NULL CHECK (length(source) BETWEEN 1 AND 100),
    as_of         date NOT NULL,      -- the day the rate is for
    staff_user_id uuid,               -- set on a staff override, with the reason
    staff_email   text,
    reason        text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT exchange_rates_override CHECK ((staff_user_id IS NULL) = (reason IS NULL))
);
CREATE INDEX exchange_rates_current ON exchange_rates (currency, as_of DESC, created_at DESC);
