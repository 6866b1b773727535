-- A donation's first charge is guarded by a sweep rather than by a workflow the donor's request starts before it
-- charges (issue 19): that start cost every donation about a seventh of the form's CPU, and a Temporal server that did
-- not answer refused donations. first_charge_open is set when the form (or an agency's sync) writes the donation,
-- before its charge, and cleared once the writer has settled the first charge and done what follows it (the receipt
-- and thank-you e-mails, a monthly donation's collection); firstcharge.Sweep starts the guard of every donation still
-- open a while after it was written (the request died, the gateway's answer was lost or is pending) and clears it.
-- Rows written before this migration are guarded by the workflow their request started.
ALTER TABLE donations ADD COLUMN first_charge_open boolean NOT NULL DEFAULT false;
CREATE INDEX donations_first_charge_open ON donations (created_at) WHERE first_charge_open;
