-- Plan changes of a bought subscription (issue #14; README "Subscription"): a downgrade, or a change
-- of period, waits in next_plan_code for the next period; an upgrade applies at once and charges the
-- difference pro rata in an invoice of its own (kind 'prorata', keyed by the change's time within
-- the subscription, its change_id naming the gateway payment's reference).
ALTER TABLE organization_subscriptions ADD COLUMN next_plan_code text REFERENCES plans (code)
    CHECK (next_plan_code <> 'original');
ALTER TABLE subscription_invoices ADD COLUMN kind text NOT NULL DEFAULT 'period' CHECK (kind IN ('period', 'prorata'));
ALTER TABLE subscription_invoices ADD COLUMN change_id uuid;
ALTER TABLE subscription_invoices ADD CONSTRAINT subscription_invoices_prorata_change
    CHECK ((kind = 'prorata') = (change_id IS NOT NULL));
