-- The leads export (donor-and-campaigns §2.8) has a last name column; forms that ask for it fill it.
ALTER TABLE leads ADD COLUMN last_name text NOT NULL DEFAULT '';
