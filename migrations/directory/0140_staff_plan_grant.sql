-- Plans change only through billing or a staff action: the console's plan grant is audited with the
-- plan it set, beside the review actions.
ALTER TABLE staff_audit_log DROP CONSTRAINT staff_audit_log_action_check;
ALTER TABLE staff_audit_log ADD CONSTRAINT staff_audit_log_action_check
    CHECK (action IN ('approve_document','reject_document','enable_account','view_attachment','grant_plan'));
ALTER TABLE staff_audit_log ADD COLUMN plan_code text;
