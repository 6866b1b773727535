-- The public form's extra field values (donor spec §3 form fields), kept with the donation as the
-- donor saw each field: [{"order", "type", "title", "label", "value"}]. A snapshot, so editing or
-- removing a campaign field later does not change what a donor answered. Tenant-keyed like every
-- donations column (organization_id leads its primary key). Tickets sold are counted from the
-- items (the ticket option is the item's name) through donations_campaign_idx.
ALTER TABLE donations ADD COLUMN form_values jsonb NOT NULL DEFAULT '[]';
