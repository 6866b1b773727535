-- Legal documents an organisation uploads for verification (organisation-and-account §2, §3, §5).

-- Reference table: which document types each country requires, with the i18n keys of their label and
-- description and a help-centre link. No organization_id: every shard holds it whole.
CREATE TABLE country_documents (
    country          char(2) NOT NULL REFERENCES countries (code),
    type             text NOT NULL CHECK (type ~ '^[a-z][a-z0-9_]{1,40}$'),
    position         smallint NOT NULL,
    label_key        text NOT NULL,
    description_key  text NOT NULL,
    help_center_url  text NOT NULL,
    PRIMARY KEY (country, type)
);
INSERT INTO country_documents (country, type, position, label_key, description_key, help_center_url) VALUES
    ('AR', 'bylaws',                  1, 'document.bylaws.label',                  'document.bylaws.description',                  'https://ayuda.aporta.org/documentos/ar/estatuto'),
    ('AR', 'cuit_certificate',        2, 'document.cuit_certificate.label',        'document.cuit_certificate.description',        'https://ayuda.aporta.org/documentos/ar/constancia-cuit'),
    ('AR', 'authorities_designation', 3, 'document.authorities_designation.label', 'document.authorities_designation.description', 'https://ayuda.aporta.org/documentos/ar/autoridades'),
    ('AR', 'representative_id',       4, 'document.representative_id.label',       'document.representative_id.description',       'https://ayuda.aporta.org/documentos/ar/dni-representante'),
    ('BR', 'bylaws',                  1, 'document.bylaws.label',                  'document.bylaws.description',                  'https://ajuda.aporta.org/documentos/br/estatuto'),
    ('BR', 'cnpj_card',               2, 'document.cnpj_card.label',               'document.cnpj_card.description',               'https://ajuda.aporta.org/documentos/br/cartao-cnpj'),
    ('BR', 'authorities_designation', 3, 'document.authorities_designation.label', 'document.authorities_designation.description', 'https://ajuda.aporta.org/documentos/br/ata-diretoria'),
    ('BR', 'representative_id',       4, 'document.representative_id.label',       'document.representative_id.description',       'https://ajuda.aporta.org/documentos/br/documento-representante'),
    ('CL', 'bylaws',                  1, 'document.bylaws.label',                  'document.bylaws.description',                  'https://ayuda.aporta.org/documentos/cl/estatutos'),
    ('CL', 'rut_certificate',         2, 'document.rut_certificate.label',         'document.rut_certificate.description',         'https://ayuda.aporta.org/documentos/cl/e-rut'),
    ('CL', 'validity_certificate',    3, 'document.validity_certificate.label',    'document.validity_certificate.description',    'https://ayuda.aporta.org/documentos/cl/certificado-vigencia'),
    ('CL', 'representative_id',       4, 'document.representative_id.label',       'document.representative_id.description',       'https://ayuda.aporta.org/documentos/cl/cedula-representante'),
    ('CO', 'existence_certificate',   1, 'document.existence_certificate.label',   'document.existence_certificate.description',   'https://ayuda.aporta.org/documentos/co/camara-de-comercio'),
    ('CO', 'rut_certificate',         2, 'document.rut_certificate.label',         'document.rut_certificate.description',         'https://ayuda.aporta.org/documentos/co/rut-dian'),
    ('CO', 'representative_id',       3, 'document.representative_id.label',       'document.representative_id.description',       'https://ayuda.aporta.org/documentos/co/cedula-representante'),
    ('MX', 'constitutive_act',        1, 'document.constitutive_act.label',        'document.constitutive_act.description',        'https://ayuda.aporta.org/documentos/mx/acta-constitutiva'),
    ('MX', 'tax_certificate',         2, 'document.tax_certificate.label',         'document.tax_certificate.description',         'https://ayuda.aporta.org/documentos/mx/constancia-situacion-fiscal'),
    ('MX', 'representative_id',       3, 'document.representative_id.label',       'document.representative_id.description',       'https://ayuda.aporta.org/documentos/mx/identificacion-representante'),
    ('PE', 'bylaws',                  1, 'document.bylaws.label',                  'document.bylaws.description',                  'https://ayuda.aporta.org/documentos/pe/estatuto'),
    ('PE', 'ruc_record',              2, 'document.ruc_record.label',              'document.ruc_record.description',              'https://ayuda.aporta.org/documentos/pe/ficha-ruc'),
    ('PE', 'validity_certificate',    3, 'document.validity_certificate.label',    'document.validity_certificate.description',    'https://ayuda.aporta.org/documentos/pe/vigencia-de-poder'),
    ('PE', 'representative_id',       4, 'document.representative_id.label',       'document.representative_id.description',       'https://ayuda.aporta.org/documentos/pe/dni-representante'),
    ('UY', 'bylaws',                  1, 'document.bylaws.label',                  'document.bylaws.description',                  'https://ayuda.aporta.org/documentos/uy/estatuto'),
    ('UY', 'rut_certificate',         2, 'document.rut_certificate.label',         'document.rut_certificate.description',         'https://ayuda.aporta.org/documentos/uy/certificado-rut'),
    ('UY', 'representative_id',       3, 'document.representative_id.label',       'document.representative_id.description',       'https://ayuda.aporta.org/documentos/uy/ci-representante');

-- One row per (organisation, document type) once something was uploaded. status 'pending' means
-- files are being gathered; the §4 statuses follow.
CREATE TABLE organization_documents (
    organization_id  uuid NOT NULL REFERENCES organizations (organization_id),
    type             text NOT NULL,
    status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending','ready_for_review','approved','rejected')),
    rejected_reason  text,
    submitted_at     timestamptz,
    reviewed_at      timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, type)
);

-- The files of a document. blob_key is the object-storage key; files are never public.
CREATE TABLE document_attachments (
    organization_id    uuid NOT NULL,
    id                 uuid NOT NULL,
    document_type      text NOT NULL,
    blob_key           text NOT NULL,
    original_filename  text NOT NULL,
    content_type       text NOT NULL,
    size_bytes         bigint NOT NULL CHECK (size_bytes > 0 AND size_bytes < 52428800),
    status             text NOT NULL DEFAULT 'uploaded' CHECK (status IN ('uploaded','approved','rejected')),
    created_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, document_type) REFERENCES organization_documents (organization_id, type)
);
CREATE INDEX document_attachments_type_idx ON document_attachments (organization_id, document_type, created_at);
