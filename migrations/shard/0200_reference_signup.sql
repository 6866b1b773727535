-- Signup reference data, formerly copied in Go (internal/taxid options) and TypeScript
-- (web/src/features/account/countries.ts): each country's phone code and the tax-id types an
-- organisation may sign up with, in the order the form offers them, each with an example already
-- in its mask. Reference tables (no organization_id): every shard holds them whole.

ALTER TABLE countries ADD COLUMN phone_code text;
UPDATE countries SET phone_code = v.phone_code
FROM (VALUES ('AR', '+54'), ('BR', '+55'), ('CL', '+56'), ('CO', '+57'), ('MX', '+52'), ('PE', '+51'), ('UY', '+598'))
    AS v (code, phone_code)
WHERE countries.code = v.code;
ALTER TABLE countries ALTER COLUMN phone_code SET NOT NULL;

CREATE TABLE uid_options (
    country      char(2) NOT NULL REFERENCES countries (code),
    uid_type     text NOT NULL,
    position     smallint NOT NULL,
    placeholder  text NOT NULL,
    PRIMARY KEY (country, uid_type),
    UNIQUE (country, position)
);
INSERT INTO uid_options (country, uid_type, position, placeholder) VALUES
    ('AR', 'CUIT', 1, '30-12345678-9'),
    ('AR', 'CUIL', 2, '20-12345678-9'),
    ('BR', 'CNPJ', 1, '11.222.333/0001-81'),
    ('BR', 'CPF',  2, '529.982.247-25'),
    ('CL', 'RUT',  1, '76.086.428-5'),
    ('CO', 'NIT',  1, '800197268-4'),
    ('MX', 'RFC',  1, 'SAT-970701-NN3'),
    ('PE', 'RUC',  1, '20100070970'),
    ('UY', 'RUT',  1, '21-000000-001-1');
