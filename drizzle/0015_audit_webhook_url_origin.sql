-- Audit events of webhook endpoints keep a URL's origin only (scheme, host, port): members read the
-- audit log but may not manage webhooks, and a webhook URL's path and query often hold a token.
-- Events recorded before held the whole URL; cut them to what comes before the path.
UPDATE "audit_events"
SET "details" = jsonb_set("details", '{url}', to_jsonb(substring("details"->>'url' from '^[A-Za-z][A-Za-z0-9+.-]*://[^/\\?#]*')))
WHERE "action" IN ('webhook_endpoint.create', 'webhook_endpoint.delete')
  AND jsonb_typeof("details"->'url') = 'string'
  AND "details"->>'url' ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/\\?#]*[/\\?#]';
