-- A new donation's donor and card in one delegated call (issue 19): internal/newdonation linked the donor (donor_link)
-- and then stored the card (sharddb's UpsertPaymentMethod) in a statement of its own, which on Citus the coordinator
-- planned and sent on to the worker, which planned it again. The card is an object (p_card, null: none, an off-site
-- bank debit), written as UpsertPaymentMethod writes it: once per gateway customer and card, a card saved again
-- refreshing its expiry and holder. Answers the donor's id and the card's ('payment_method_id', null without one).
CREATE FUNCTION donor_card_link(org uuid, p_id uuid, p_email text, p_first_name text, p_last_name text, p_uid_type text,
                                p_uid_number text, p_fields jsonb, p_card jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    donor uuid;
    card uuid;
BEGIN
    donor := donor_link(org, p_id, p_email, p_first_name, p_last_name, p_uid_type, p_uid_number, p_fields);
    IF p_card IS NOT NULL THEN
        INSERT INTO payment_methods AS pm (organization_id, id, donor_id, gateway, customer_id, card_id, brand, bin,
                                           last_four, expiry_month, expiry_year, holder_name, holder_id_type,
                                           holder_id_number, donor_is_cardholder)
        VALUES (org, (p_card ->> 'id')::uuid, donor, p_card ->> 'gateway', p_card ->> 'customer_id', p_card ->> 'card_id',
                p_card ->> 'brand', nullif(p_card ->> 'bin', ''), p_card ->> 'last_four',
                (p_card ->> 'expiry_month')::smallint, (p_card ->> 'expiry_year')::smallint, p_card ->> 'holder_name',
                p_card ->> 'holder_id_type', p_card ->> 'holder_id_number', (p_card ->> 'donor_is_cardholder')::boolean)
        ON CONFLICT (organization_id, gateway, customer_id, card_id) DO UPDATE
        SET expiry_month = excluded.expiry_month, expiry_year = excluded.expiry_year, holder_name = excluded.holder_name,
            holder_id_type = excluded.holder_id_type, holder_id_number = excluded.holder_id_number,
            donor_is_cardholder = excluded.donor_is_cardholder
        RETURNING pm.id INTO card;
    END IF;
    RETURN jsonb_build_object('donor_id', donor, 'payment_method_id', card);
END $$;
