-- A monthly donation pauses with gateway_disconnected when its organisation's gateway connection
-- stayed missing or in need of reconnection for a week while a charge was due (workflows/collection).
ALTER TABLE donations DROP CONSTRAINT donations_paused_reason_check;
ALTER TABLE donations ADD CONSTRAINT donations_paused_reason_check CHECK (paused_reason IN (
    'all_not_approved','by_api','by_org','cc_expired','cc_invalid_number','cc_missing_security_code',
    'donor_request_stop_debit','gateway_disconnected','invalid_amount','last_transaction_card_cancelled',
    'last_transaction_charge_back','last_transaction_high_risk','last_transaction_stolen_issue',
    'last_transactions_not_approved','last_x_months_not_approved','payment_method_invalid',
    'payment_method_missing','payment_method_not_supported','unknown'));
