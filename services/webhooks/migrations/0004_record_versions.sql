-- The versions that endpoints' and deliveries' ETags are made from: raised by the kit's bump_record_version() (kit
-- migration 0007) when a field their records show changes (src/domain/webhook.record.ts), and only then: a delivery's
-- claims and leases, an endpoint's failure clock and its secrets change the rows without changing what GET shows, and
-- must not make a client's If-Match fail (a delivery being retried would change under every PATCH of its endpoint).
-- Existing rows start at 1.
ALTER TABLE webhook_endpoints ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE webhook_deliveries ADD COLUMN version integer NOT NULL DEFAULT 1;

CREATE TRIGGER webhook_endpoints_version BEFORE UPDATE ON webhook_endpoints
  FOR EACH ROW
  WHEN ((OLD.url, OLD.events, OLD.description, OLD.enabled, OLD.disabled_reason, OLD.updated_at)
        IS DISTINCT FROM (NEW.url, NEW.events, NEW.description, NEW.enabled, NEW.disabled_reason, NEW.updated_at))
  EXECUTE FUNCTION bump_record_version();
CREATE TRIGGER webhook_deliveries_version BEFORE UPDATE ON webhook_deliveries
  FOR EACH ROW
  WHEN ((OLD.status, OLD.attempts, OLD.next_attempt_at, OLD.last_attempt_at, OLD.last_response_status, OLD.last_error,
         OLD.attempts_log)
        IS DISTINCT FROM (NEW.status, NEW.attempts, NEW.next_attempt_at, NEW.last_attempt_at, NEW.last_response_status,
                          NEW.last_error, NEW.attempts_log))
  EXECUTE FUNCTION bump_record_version();
