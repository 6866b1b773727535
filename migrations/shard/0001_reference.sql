-- Shared lookups: small tables every shard holds whole (Citus reference tables). They carry no
-- organization_id; the migration runner makes them reference tables where Citus is present.

CREATE TABLE currencies (
    code      char(3) PRIMARY KEY,
    decimals  smallint NOT NULL CHECK (decimals IN (0, 2))
);
INSERT INTO currencies (code, decimals) VALUES
    ('ARS', 2), ('BRL', 2), ('CLP', 0), ('COP', 0), ('MXN', 2), ('PEN', 2), ('USD', 2), ('UYU', 2);

CREATE TABLE countries (
    code      char(2) PRIMARY KEY,
    currency  char(3) NOT NULL REFERENCES currencies (code),
    timezone  text NOT NULL
);
INSERT INTO countries (code, currency, timezone) VALUES
    ('AR', 'ARS', 'America/Argentina/Buenos_Aires'),
    ('BR', 'BRL', 'America/Sao_Paulo'),
    ('CL', 'CLP', 'America/Santiago'),
    ('CO', 'COP', 'America/Bogota'),
    ('MX', 'MXN', 'America/Mexico_City'),
    ('PE', 'PEN', 'America/Lima'),
    ('UY', 'UYU', 'America/Montevideo');

-- Identity document types (organisation-and-account §3) and where each applies.
CREATE TABLE document_types (
    code       text PRIMARY KEY,
    countries  char(2)[] NOT NULL
);
INSERT INTO document_types (code, countries) VALUES
    ('CC',   '{CO}'),
    ('CE',   '{CO,PE}'),
    ('CI',   '{UY}'),
    ('CUIL', '{AR}'),
    ('CUIT', '{AR}'),
    ('DNI',  '{AR,PE}'),
    ('LC',   '{AR}'),
    ('LE',   '{AR}'),
    ('NIT',  '{CO}'),
    ('Otro', '{AR,BR,CL,CO,MX,PE,UY}'),
    ('RFC',  '{MX}'),
    ('RUC',  '{PE}'),
    ('RUT',  '{CL,UY}');

CREATE TABLE banks (
    country  char(2) NOT NULL REFERENCES countries (code),
    code     text NOT NULL,
    label    text NOT NULL,
    PRIMARY KEY (country, code)
);

CREATE TABLE plans (
    code       text PRIMARY KEY,
    tier_name  text NOT NULL CHECK (tier_name IN ('Original','Essential','Professional','Partner')),
    period     text NOT NULL CHECK (period IN ('monthly','yearly')),
    usd_price  numeric(10,2) NOT NULL
);
INSERT INTO plans (code, tier_name, period, usd_price) VALUES
    ('original',             'Original',     'monthly',    0),
    ('essential_monthly',    'Essential',    'monthly',   49),
    ('essential_yearly',     'Essential',    'yearly',   490),
    ('professional_monthly', 'Professional', 'monthly',  149),
    ('professional_yearly',  'Professional', 'yearly',  1490),
    ('partner_monthly',      'Partner',      'monthly',  399),
    ('partner_yearly',       'Partner',      'yearly',  3990);
