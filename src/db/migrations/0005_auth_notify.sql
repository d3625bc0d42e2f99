-- Every change to what an API key lookup answers (the key, its member, its company) announces the company
-- on channel svc_auth when it commits, so in-process key caches on every instance drop that company's keys
-- at once (src/platform/key-cache.ts). Notices are sent only on commit and identical ones are merged.

CREATE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  company text;
BEGIN
  IF TG_TABLE_NAME = 'companies' THEN
    company := coalesce(NEW.id, OLD.id)::text;
  ELSE
    company := coalesce(NEW.company_id, OLD.company_id)::text;
  END IF;
  PERFORM pg_notify('svc_auth', company);
  RETURN NULL;
END;
$$;

-- last_used_at is written at most once a minute per key by the lookup itself; it changes nothing cached.
CREATE TRIGGER api_keys_auth_change AFTER INSERT OR DELETE OR UPDATE OF kind, scopes, person_id, is_active,
  expires_at, grace_expires_at, ip_allowlist, revoked_at, key_hash ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER members_auth_change AFTER INSERT OR DELETE OR UPDATE OF role, status, person_id ON members
  FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
CREATE TRIGGER companies_auth_change AFTER INSERT OR DELETE OR UPDATE ON companies
  FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
