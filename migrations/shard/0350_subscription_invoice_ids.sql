-- Each subscription invoice gets an id of its own, which its PDF download names
-- (GET /manage/api/subscription/invoices/{id}/pdf; issue #14). Unique within the organisation, as
-- Citus requires of every unique index.
ALTER TABLE subscription_invoices ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX subscription_invoices_id ON subscription_invoices (organization_id, id);
