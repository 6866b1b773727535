-- The donor's data as the public form submitted it with each donation: name, e-mail, document and
-- the answers of fields related to a donor column ({"first_name", "last_name", "email", "uid_type",
-- "uid_number", "phone", …}). The form no longer writes an existing donor's record (anyone can type
-- someone's e-mail); what each submission said stays with its own donation, for its detail and the
-- export. NULL for donations made before this column or outside the public form. A plain column of
-- donations, whose primary key organization_id already leads: no new key or constraint.
ALTER TABLE donations ADD COLUMN donor_snapshot jsonb;
