-- Country data and the organisation general page (organisation-and-account §3, §7): the phone codes a
-- phone input offers, the categories (themes) an organisation describes its work with, and the
-- organisation's legal name, categories and pictures. phone_codes and organization_categories are
-- reference tables (no organization_id): every shard holds them whole.

CREATE TABLE phone_codes (
    iso         char(2) PRIMARY KEY,
    name        text NOT NULL,
    phone_code  text NOT NULL CHECK (phone_code ~ '^\+[0-9]{1,4}$'),
    position    smallint NOT NULL UNIQUE
);
INSERT INTO phone_codes (iso, name, phone_code, position) VALUES
    ('AR', 'Argentina', '+54', 1), ('BO', 'Bolivia', '+591', 2), ('BR', 'Brasil', '+55', 3), ('CL', 'Chile', '+56', 4),
    ('CO', 'Colombia', '+57', 5), ('CR', 'Costa Rica', '+506', 6), ('CU', 'Cuba', '+53', 7), ('DO', 'República Dominicana', '+1', 8),
    ('EC', 'Ecuador', '+593', 9), ('SV', 'El Salvador', '+503', 10), ('ES', 'España', '+34', 11), ('US', 'Estados Unidos', '+1', 12),
    ('GT', 'Guatemala', '+502', 13), ('HN', 'Honduras', '+504', 14), ('MX', 'México', '+52', 15), ('NI', 'Nicaragua', '+505', 16),
    ('PA', 'Panamá', '+507', 17), ('PY', 'Paraguay', '+595', 18), ('PE', 'Perú', '+51', 19), ('PT', 'Portugal', '+351', 20),
    ('PR', 'Puerto Rico', '+1', 21), ('UY', 'Uruguay', '+598', 22), ('VE', 'Venezuela', '+58', 23), ('CA', 'Canadá', '+1', 24),
    ('DE', 'Alemania', '+49', 25), ('FR', 'Francia', '+33', 26), ('IT', 'Italia', '+39', 27), ('GB', 'Reino Unido', '+44', 28);

CREATE TABLE organization_categories (
    code      text PRIMARY KEY CHECK (code ~ '^[a-z_]{2,40}$'),
    position  smallint NOT NULL UNIQUE
);
INSERT INTO organization_categories (code, position) VALUES
    ('children', 1), ('education', 2), ('health', 3), ('food', 4), ('poverty', 5), ('housing', 6), ('environment', 7),
    ('animals', 8), ('human_rights', 9), ('women', 10), ('disability', 11), ('elderly', 12), ('emergencies', 13),
    ('culture', 14), ('sports', 15), ('community', 16), ('science', 17), ('religion', 18);

ALTER TABLE organization_profiles
    ADD COLUMN legal_name  text NOT NULL DEFAULT '' CHECK (length(legal_name) <= 200),
    ADD COLUMN categories  text[] NOT NULL DEFAULT '{}' CHECK (cardinality(categories) <= 5);

-- Pictures the organisation shows of itself: a cover for its pages and a gallery of its work.
CREATE TABLE organization_pictures (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    id               uuid NOT NULL,
    image_for        text NOT NULL CHECK (image_for IN ('cover', 'gallery')),
    key              text NOT NULL,
    content_type     text NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id)
);
CREATE INDEX organization_pictures_by_org_idx ON organization_pictures (organization_id, created_at);
