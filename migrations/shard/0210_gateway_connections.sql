-- Organisations' own payment gateway accounts (issue #12). One connection per organisation and
-- gateway; reconnecting replaces its credentials in place (same id, version + 1), so the refresh
-- workflow keyed by the id and the charge clients cached per version follow it.
-- secret is the envelope-encrypted access and refresh tokens (internal/secrets): never stored,
-- logged or answered in clear; key_id names the key that wraps it, so a rotation finds what is left.
CREATE TABLE gateway_connections (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    id              uuid NOT NULL,
    gateway         text NOT NULL CHECK (gateway IN ('mercadopago', 'centralpos')),
    status          text NOT NULL CHECK (status IN ('active', 'needs_reconnection')),
    account_id      text NOT NULL,
    account_name    text NOT NULL,
    site            text,          -- MercadoPago's site id (MLA…) or the merchant's country
    live_mode       boolean NOT NULL,
    public_key      text NOT NULL,
    secret          bytea NOT NULL,
    key_id          text NOT NULL,
    version         integer NOT NULL DEFAULT 1,
    expires_at      timestamptz,   -- the access token's; NULL when it does not expire
    activated_at    timestamptz NOT NULL DEFAULT now(),
    refreshed_at    timestamptz,
    status_changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, id),
    CONSTRAINT gateway_connections_gateway_key UNIQUE (organization_id, gateway)
);

-- One start of an OAuth authorization-code flow: the state is kept only as its SHA-256, bound to
-- the identity and organisation that started it, used once and within 10 minutes; the PKCE
-- verifier is encrypted like the tokens.
CREATE TABLE gateway_oauth_states (
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    state_hash      bytea NOT NULL,
    gateway         text NOT NULL,
    identity_id     uuid NOT NULL,
    verifier        bytea NOT NULL,
    key_id          text NOT NULL,
    return_to       text NOT NULL CHECK (return_to IN ('onboarding', 'settings')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    used_at         timestamptz,
    PRIMARY KEY (organization_id, state_hash)
);
CREATE INDEX gateway_oauth_states_created_idx ON gateway_oauth_states (organization_id, created_at);
