-- Template (plan) clients carry only a workflow template's master tasks: they are configuration, not
-- customers. The client list fences them out by these partial indexes (as tasks_live_work does for the
-- template tasks), so a list, its total and a name search never scan the template clients.
CREATE INDEX clients_live_work_id ON clients (company_id, id) WHERE deleted_at IS NULL AND type <> 'plan';
CREATE INDEX clients_live_work_name ON clients (company_id, name, id) WHERE deleted_at IS NULL AND type <> 'plan';

-- Client e-mails are queued in the request's transaction and sent after commit; an HTML template's mail keeps
-- its HTML part here so a retried send is the same mail.
ALTER TABLE mail_outbox ADD COLUMN html text;
