-- Plans per country (organisation-and-account §3 Plan, Country data; §9 plan periods, payment modes):
-- each country's price of every plan in its own currency (localize_price; plans.usd_price is the
-- list price), and the ways an organisation of the country may pay its subscription. A country may be
-- card-only. Reference tables (no organization_id): every shard holds them whole.

ALTER TABLE countries ADD COLUMN payment_modes text[] NOT NULL DEFAULT '{card}'
    CHECK (cardinality(payment_modes) > 0 AND payment_modes <@ '{card,cbu,bank_transfer}'::text[]);
-- CBU direct debit exists only in Argentina; Brazil and Uruguay take the subscription by card only.
UPDATE countries SET payment_modes = v.modes::text[]
FROM (VALUES ('AR', '{card,cbu,bank_transfer}'), ('BR', '{card}'), ('CL', '{card,bank_transfer}'),
             ('CO', '{card,bank_transfer}'), ('MX', '{card,bank_transfer}'), ('PE', '{card,bank_transfer}'),
             ('UY', '{card}'))
    AS v (code, modes)
WHERE countries.code = v.code;

-- The order a plan list shows the tiers in.
ALTER TABLE plans ADD COLUMN position smallint;
UPDATE plans SET position = CASE tier_name WHEN 'Original' THEN 0 WHEN 'Essential' THEN 1
                                           WHEN 'Professional' THEN 2 ELSE 3 END;
ALTER TABLE plans ALTER COLUMN position SET NOT NULL;

CREATE TABLE plan_prices (
    country               char(2) NOT NULL REFERENCES countries (code),
    plan_code             text NOT NULL REFERENCES plans (code),
    -- In minor units of the country's currency (countries.currency).
    localize_price_minor  bigint NOT NULL CHECK (localize_price_minor >= 0),
    PRIMARY KEY (country, plan_code)
);
-- A round local price near the list price: whole units, rounded to the currency's usual step.
INSERT INTO plan_prices (country, plan_code, localize_price_minor)
SELECT c.code, p.code,
       (ceil(p.usd_price * v.rate / v.step) * v.step)::bigint * CASE cur.decimals WHEN 2 THEN 100 ELSE 1 END
FROM countries c
JOIN currencies cur ON cur.code = c.currency
JOIN (VALUES ('AR', 1200, 1000), ('BR', 5.5, 10), ('CL', 950, 1000), ('CO', 4000, 1000),
             ('MX', 18, 10), ('PE', 3.8, 10), ('UY', 40, 100))
    AS v (code, rate, step) ON v.code = c.code
CROSS JOIN plans p;
