// The tables a module queries without owning them, as they are today: each pair says why. Shrink it by using the
// owner's export (a projection, a status set, a price) instead of its table; a new pair needs a comment saying why.
export const ALLOWED_FOREIGN_TABLES: Record<string, Record<string, string>> = {
  // the delivery loops claim and settle rows of the modules they deliver for
  background: {
    companies: 'owned by companies; used in claim.ts',
    events: 'owned by platform; used in engine.ts',
    legacy_webhook_deliveries: 'owned by legacy-webhooks; used in legacy.ts',
    members: 'owned by members; used in notify.ts',
    people: 'owned by members; used in notify.ts',
    webhook_attempts: 'owned by webhooks; used in outcome.ts',
    webhook_deliveries: 'owned by webhooks; used in claim.ts engine.ts outcome.ts pacing.ts',
    webhooks: 'owned by webhooks; used in engine.ts outcome.ts',
  },
  // the engine prices all uninvoiced work of a run in one set-based statement per step (hot path; splitting it changes plans, not results, and missed-computation.test.ts pins the results)
  billing: {
    contract_rows:
      "contracts; billing.work.repository.ts and missed-billing.repository.ts join each row to its work in the engine's one statement, billing.repository.ts writes the run's rows",
    contracts:
      "contracts; the engine's statement filters live, active contracts of the period in the same scan as their rows",
    invoice_row_entries:
      'invoices; billing.locks.ts and billing.clients.ts probe it per entry inside set-based lock and client checks (correlated, per row of a scan)',
    invoice_row_fees:
      'invoices; the engine excludes fees already invoiced and links new ones in the statement that creates the rows',
    invoices:
      'invoices; billing.locks.ts and billing.clients.ts read the billing invoice of each entry in the same scan (billedStatus comes from invoices/index.ts)',
    products:
      "products; the engine and the run's row listing join each contract row's product in the same statement; the price itself is products' priceInEffectSql",
    tasks:
      "tasks; billing.clients.ts finds an entry's client through its task per row of a scan, and the engine joins work to its task",
    time_entries:
      'time-entries; time-entries imports billing (entryLocks, lockedPeriods), so billing cannot import it back: the locked-time and work scans read entries here',
    topics: "topics; the engine's statement reads each entry's topic billability (billableWork) in the same scan",
  },
  // a budget's spend (spent_net_sum, spent time) is computed per budget row in correlated subqueries of its list query, one statement per page
  budgets: {
    invoice_row_entries:
      'invoices; PROJECT_ROWS: which invoice rows bill time of the project, correlated on the budget row',
    invoice_rows:
      'invoices; the project spend sums invoice rows, correlated on the budget row (an export would be invoices\' "billed amount of a project", not written yet)',
    invoices:
      'invoices; the client spend sums billed invoices (billedStatus from invoices/index.ts) correlated on the budget row',
    tasks: "tasks; spent time walks the project's tasks, correlated on the budget row",
    time_entries: 'time-entries; spent time sums entries of those tasks in the same correlated subquery',
  },
  // a client's groups are part of its record; visibility goes through client members
  clients: {
    client_group_links:
      "client-groups; the record's groups are read (a correlated subquery of every read and list) and replaced by PATCH here; client-groups imports clients (the client events of a group delete, liveClientIds), so an export back would make a loop",
    client_groups: 'client-groups; the same subquery skips deleted groups (the same loop)',
    client_members: 'owned by client-members; used in clients.visibility.ts (a member sees the clients they belong to)',
    workflow_templates:
      "workflow-templates; which template owns a plan client (templateOfPlanClient, for READ_ONLY's path): workflow-templates is to read clients through clients' exports, so clients importing it would make a loop",
  },
  // the apps' switches live on the company row
  'company-apps': {
    companies: 'owned by companies; used in company-apps.repository.ts',
  },
  // client e-mails are queued for the mailer
  'content-templates': {
    mail_outbox: 'owned by background; used in client-emails.repository.ts content-templates.mail.ts',
  },
  // the events API reads the platform's outbox
  events: {
    events: 'owned by platform; used in events.repository.ts',
  },
  // accepting an invitation creates the member, person and account under one lock
  invitations: {
    accounts: 'owned by sessions; used in invitations.accept.ts',
    companies: 'owned by companies; used in invitations.repository.ts',
    members: 'owned by members; used in invitations.accept.ts invitations.repository.ts',
    people: 'owned by members; used in invitations.accept.ts invitations.repository.ts',
  },
  // a job started in the web application acts as its member: member and company read in one query (sessionJobActor)
  jobs: {
    companies:
      "companies; the session job's actor reads its company with its member; jobs cannot import companies or members (members → sessions → content-templates → jobs would be an import loop)",
    members: "members; the same query reads the member's status and role",
  },
  // authentication reads keys, members, sessions and companies
  platform: {
    api_keys: 'owned by auth; used in auth.ts',
    companies: 'owned by companies; used in main.ts auth.ts session-auth.ts system-actor.ts',
    members: 'owned by members; used in auth.ts session-auth.ts',
    sessions: 'owned by sessions; used in session-auth.ts',
  },
  // a field in use by a product or a contract row is refused
  'product-fields': {
    contract_rows:
      "contracts; contracts imports product-fields' reference checks, so its count cannot come from contracts' index (an import loop)",
    contracts: 'contracts; the same count keeps only live contracts',
    products:
      "products; products imports product-fields' reference checks, so its count cannot come from products' index (an import loop)",
  },
  // a product in use is refused; the product list shows its tax
  products: {
    contract_rows:
      "contracts; contracts imports products (productFacts, priceOn), so products cannot import contracts' answer: rows of live contracts are probed here",
    contracts: 'contracts; the same probe keeps only live contracts',
    invoice_rows: 'invoices; invoices imports products (productFacts, priceOn), so the invoiced probe stays here',
    taxes: "taxes; the product list and record join the tax's name and rate in the same query (withTax)",
  },
  // a project moving to another client takes its tasks along
  projects: {
    tasks:
      "tasks; the move counts the tasks the caller cannot see and moves the rest (not yet a tasks export: tasks' list is to read projects through projects' exports, and projects importing tasks would then make a loop)",
  },
  // the reports aggregate a window in one statement per figure (time × cost × revenue); reports tests pin the results
  reports: {
    agreements:
      'agreements; the cost of time joins each person-day to the agreement of that day inside the same statement (costCtes)',
    invoice_rows:
      'invoices; the BI revenue per product/bucket sums invoice rows of billed invoices in one grouped statement',
    invoices:
      "invoices; revenue, drafts, other currencies and bi_state's has_invoices are grouped sums over the window's invoices",
    tasks: "tasks; entries are grouped by their task's client and project in the same scan (entriesFrom)",
    time_entries:
      'time-entries; the scan of the window: entries reduced to person-days before any join (workTotals, entriesFrom)',
    topics: "topics; billable time tests the entry's topic in the same scan (billableWork from billing)",
  },
  // a session names its member, person and company
  sessions: {
    companies: 'owned by companies; used in sessions.repository.ts',
    members: 'owned by members; used in sessions.accounts.ts sessions.repository.ts',
    people: 'owned by members; used in sessions.repository.ts',
  },
  // automations notify through the background's queue, fed by the outbox's events (their task reads and writes, and audit rows, are the owners')
  'task-automations': {
    events:
      'platform; a queued automation event is taken off the queue and read from the outbox in one delete ... returning (takeQueued)',
    notifications:
      'background; modules enqueue notifications and the background delivers them (src/platform/tables.ts): the notify action inserts its rows',
  },
  // a template row is joined to its template
  tasks: {
    workflow_master_tasks:
      'workflow-templates; templateRows joins a template row to its template in one query; workflow-templates imports tasks (copies, lean rows), so tasks cannot import it back',
  },
  // an entry is read with its task and checked against it in one statement
  'time-entries': {
    tasks:
      "tasks; the list and reads join each entry's task (title, client, topic) in the same statement, and checkInputs tests the tasks in its one statement (POST /time-entries is benchmarked); tasks imports time-entries (tracked time), so time-entries cannot import tasks back",
  },
  // the webhook API reads the outbox and the company's settings
  webhooks: {
    events: 'owned by platform; used in webhooks.repository.ts',
  },
};
