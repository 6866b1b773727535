-- Queuing a change for the CRM and an event for webhooks without a distributed INSERT … SELECT (issue 19). Citus
-- could not push those inserts down to the organisation's shard (gen_random_uuid() and the clock_timestamp()
-- default are volatile): it ran each as a subplan pulled through the coordinator, and a transaction holding one
-- committed in two phases (PREPARE, COMMIT PREPARED) while it held the rollup's and the receipt counter's rows.
-- Every donation's transactions queue both, mostly for organisations with no integration or endpoint. These
-- functions write the same rows, one router INSERT … VALUES per integration or endpoint, and are delegated to the
-- worker (tenants.delegatedFunctions): one round trip, and a transaction that stays on one node commits in one
-- phase. The rows are 0290's EnqueueCRMChange's and 0430's EnqueueWebhookEvent's.

-- One pending change of the record per CRM integration of the organisation, coalesced with one already pending (its
-- version moves, so a batch in flight does not take it as sent); answers how many integrations there are.
CREATE FUNCTION crm_enqueue(org uuid, change_kind text, record uuid) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    integration uuid;
    n integer := 0;
BEGIN
    FOR integration IN SELECT id FROM crm_integrations WHERE organization_id = org ORDER BY id LOOP
        INSERT INTO crm_changes AS c (organization_id, integration_id, id, kind, record_id)
        VALUES (org, integration, gen_random_uuid(), change_kind, record)
        ON CONFLICT (organization_id, integration_id, kind, record_id) WHERE status = 'pending'
        DO UPDATE SET version = c.version + 1, enqueued_at = EXCLUDED.enqueued_at;
        n := n + 1;
    END LOOP;
    RETURN n;
END $$;

-- One delivery of the event per active endpoint of the organisation that takes its type, once per event (a retried
-- writer enqueues nothing twice); answers how many endpoints take it.
CREATE FUNCTION webhook_enqueue(org uuid, event uuid, type text, payload jsonb) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    endpoint uuid;
    n integer := 0;
BEGIN
    FOR endpoint IN SELECT id FROM webhook_endpoints WHERE organization_id = org AND status = 'active' AND type = ANY (events)
                    ORDER BY id LOOP
        INSERT INTO webhook_deliveries (organization_id, endpoint_id, id, event_id, event_type, body)
        VALUES (org, endpoint, gen_random_uuid(), event, type, payload)
        ON CONFLICT (organization_id, endpoint_id, event_id) WHERE resent_from IS NULL DO NOTHING;
        n := n + 1;
    END LOOP;
    RETURN n;
END $$;
