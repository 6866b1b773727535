-- The gateway a live acquisition saved its card at: the organisation's active connection when the
-- agent submitted (MercadoPago or CentralPos). The sync charges the card there, even if the
-- organisation switched gateways during the delay. Rows made before this column saved at MercadoPago.
ALTER TABLE agency_acquisitions ADD COLUMN gateway text;
UPDATE agency_acquisitions SET gateway = 'mercadopago' WHERE mode = 'live';
