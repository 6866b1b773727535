-- Integrated payments' feature flags (multiple_payment_gateways, global_payments) are set by staff
-- in the console: each change is audited with the flags it left and the reason (issue #13).
ALTER TABLE staff_audit_log DROP CONSTRAINT staff_audit_log_action_check;
ALTER TABLE staff_audit_log ADD CONSTRAINT staff_audit_log_action_check
    CHECK (action IN ('approve_document','reject_document','enable_account','view_attachment','grant_plan','set_features'));
ALTER TABLE staff_audit_log ADD COLUMN features text[];
