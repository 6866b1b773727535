-- Trials and plans (organisation-and-account §4, §9), kept by workflows/subscription: an original
-- customer gets a 90-day Essential trial; afterwards, until a plan is bought, a 3.5% commission on
-- approved charges and no new donations. Citus rules hold: organization_id is in every primary key,
-- unique constraint and foreign key.

ALTER TABLE organizations
    -- Language of the organisation's e-mails; NULL means Spanish.
    ADD COLUMN locale               text CHECK (locale IN ('es','en','pt')),
    ADD COLUMN subscription_status  text NOT NULL DEFAULT 'none'
                                    CHECK (subscription_status IN ('none','trial','restricted','active')),
    ADD COLUMN trial_started_at     timestamptz,
    ADD COLUMN trial_ends_at        timestamptz,
    ADD COLUMN plan_purchased_at    timestamptz,
    -- Commission on approved charges in basis points (350 = 3.5%); 0 outside the post-trial restriction.
    ADD COLUMN commission_bps       integer NOT NULL DEFAULT 0 CHECK (commission_bps BETWEEN 0 AND 10000),
    -- The public donation API refuses new donations when false.
    ADD COLUMN accepting_donations  boolean NOT NULL DEFAULT true,
    ADD CONSTRAINT organizations_trial_dates CHECK (trial_ends_at IS NULL OR trial_ends_at > trial_started_at);

-- The plan an organisation may use now: Essential during the trial, otherwise the bought plan.
CREATE VIEW organization_effective_plans AS
SELECT organization_id,
       CASE WHEN subscription_status = 'trial' THEN 'essential_monthly' ELSE plan_code END AS plan_code,
       subscription_status, trial_started_at, trial_ends_at, commission_bps, accepting_donations
FROM organizations;

-- Aporta's commission on one approved charge, written once per transaction.
CREATE TABLE transaction_commissions (
    organization_id  uuid NOT NULL,
    transaction_id   uuid NOT NULL,
    commission_bps   integer NOT NULL CHECK (commission_bps BETWEEN 1 AND 10000),
    amount_minor     bigint NOT NULL CHECK (amount_minor >= 0),
    currency         char(3) NOT NULL REFERENCES currencies (code),
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, transaction_id),
    FOREIGN KEY (organization_id, transaction_id) REFERENCES transactions (organization_id, id)
);

-- record_transaction_commission records the commission of an approved transaction when its
-- organisation is under the post-trial restriction (commission_bps > 0) and the charge is after the
-- trial's end. Idempotent; answers the commission in minor units (NULL when none applies).
-- Collection may call it right after an approved charge:
--   SELECT record_transaction_commission($organization_id, $transaction_id);
CREATE FUNCTION record_transaction_commission(p_org uuid, p_tx uuid) RETURNS bigint
LANGUAGE sql AS $$
    INSERT INTO transaction_commissions (organization_id, transaction_id, commission_bps, amount_minor, currency)
    SELECT t.organization_id, t.id, o.commission_bps, (t.amount_minor * o.commission_bps + 5000) / 10000, t.currency
    FROM transactions t
    JOIN organizations o ON o.organization_id = t.organization_id
    WHERE t.organization_id = p_org AND t.id = p_tx AND t.status = 'approved'
      AND o.commission_bps > 0 AND o.trial_ends_at IS NOT NULL
      AND coalesce(t.charged_at, t.created_at) >= o.trial_ends_at
    ON CONFLICT (organization_id, transaction_id) DO UPDATE SET amount_minor = excluded.amount_minor
    RETURNING amount_minor
$$;
