// The tables a module queries without owning them, as they are today: each pair says why. Shrink it by using the
// owner's export (a projection, a status set, a price) instead of its table; a new pair needs a comment saying why.
export const ALLOWED_FOREIGN_TABLES: Record<string, Record<string, string>> = {
  // a flextime agreement names its member
  agreements: {
    members: 'owned by members; used in agreements.repository.ts',
  },
  // signing in with a key loads its member and person in one query
  auth: {
    members: 'owned by members; used in auth.repository.ts',
    people: 'owned by members; used in auth.repository.ts',
  },
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
  // invoicing prices uninvoiced work in its own SQL (to move to the owners' exports)
  billing: {
    contract_rows:
      'owned by contracts; used in billing.repository.ts billing.work.repository.ts missed-billing.repository.ts',
    contracts:
      'owned by contracts; used in billing.repository.ts billing.work.repository.ts missed-billing.repository.ts',
    invoice_row_entries:
      'owned by invoices; used in billing.clients.ts billing.locks.ts billing.repository.ts billing.work.repository.ts',
    invoice_row_fees: 'owned by invoices; used in billing.repository.ts billing.work.repository.ts',
    invoices: 'owned by invoices; used in billing.clients.ts billing.locks.ts',
    products: 'owned by products; used in billing.repository.ts billing.work.repository.ts',
    tasks: 'owned by tasks; used in billing.clients.ts billing.locks.ts billing.work.repository.ts',
    time_entries: 'owned by time-entries; used in billing.locks.ts billing.work.repository.ts',
    topics: 'owned by topics; used in billing.work.repository.ts',
  },
  // the settings live partly on the company row and name the default seller
  'billing-settings': {
    invoice_sellers: 'owned by invoice-sellers; used in billing-settings.repository.ts',
  },
  // spend is summed over invoices, tasks and time in correlated subqueries
  budgets: {
    invoice_row_entries: 'owned by invoices; used in budgets.repository.ts',
    invoice_rows: 'owned by invoices; used in budgets.repository.ts',
    invoices: 'owned by invoices; used in budgets.repository.ts',
    projects: 'owned by projects; used in budgets.repository.ts',
    tasks: 'owned by tasks; used in budgets.repository.ts',
    time_entries: 'owned by time-entries; used in budgets.repository.ts',
  },
  // links are checked against live clients
  'client-groups': {
    clients: 'owned by clients; used in client-groups.repository.ts',
  },
  // a membership is checked against its client
  'client-members': {
    clients: 'owned by clients; used in client-members.repository.ts',
  },
  // the client workflow view joins client members, members and tasks in one query
  'client-workflow': {
    client_members: 'owned by client-members; used in client-workflow.repository.ts',
    clients: 'owned by clients; used in client-workflow.repository.ts',
    members: 'owned by members; used in client-workflow.repository.ts',
    tasks: 'owned by tasks; used in client-workflow.repository.ts',
  },
  // the client list filters by group, contact and template in one query; visibility goes through client members
  clients: {
    client_group_links: 'owned by client-groups; used in clients.repository.ts',
    client_groups: 'owned by client-groups; used in clients.repository.ts',
    client_members: 'owned by client-members; used in clients.visibility.ts (a member sees the clients they belong to)',
    contacts: 'owned by contacts; used in clients.repository.ts',
    workflow_templates: 'owned by workflow-templates; used in clients.repository.ts',
  },
  // creating a company creates its first member, person and key in one transaction
  companies: {
    api_keys: 'owned by auth; used in companies.service.ts',
    members: 'owned by members; used in companies.service.ts',
    people: 'owned by members; used in companies.service.ts',
  },
  // the apps' switches live on the company row
  'company-apps': {
    companies: 'owned by companies; used in company-apps.repository.ts',
  },
  // client e-mails are addressed from client and contact rows and queued for the mailer
  'content-templates': {
    clients: 'owned by clients; used in client-emails.repository.ts',
    contacts: 'owned by contacts; used in client-emails.repository.ts',
    mail_outbox: 'owned by background; used in client-emails.repository.ts content-templates.mail.ts',
  },
  // the maintenance pass finishes ended contracts in one statement over all companies, each by its own time zone
  contracts: {
    companies: 'owned by companies; used in contracts.repository.ts',
  },
  // folders belong to clients; a digitization starts a job
  documents: {
    clients: 'owned by clients; used in folders.repository.ts',
    jobs: 'owned by jobs; used in digitizations.repository.ts',
  },
  // the events API reads the platform's outbox
  events: {
    events: 'owned by platform; used in events.repository.ts',
  },
  // the balance walks days over agreements, calendar, holidays and time in one query
  flextime: {
    agreements: 'owned by agreements; used in flextime.balance.ts',
    calendar_entries: 'owned by calendar; used in flextime.balance.ts',
    global_holidays: 'owned by calendar; used in flextime.balance.ts',
    members: 'owned by members; used in flextime.balance.ts flextime.repository.ts',
    time_entries: 'owned by time-entries; used in flextime.balance.ts',
  },
  // the accounting export reads invoices with their parties and starts a job
  integrations: {
    clients: 'owned by clients; used in integrations.repository.ts',
    invoice_rows: 'owned by invoices; used in integrations.repository.ts',
    invoice_sellers: 'owned by invoice-sellers; used in integrations.repository.ts',
    invoices: 'owned by invoices; used in integrations.repository.ts',
    jobs: 'owned by jobs; used in integrations.repository.ts',
    products: 'owned by products; used in integrations.repository.ts',
    taxes: 'owned by taxes; used in integrations.repository.ts',
  },
  // accepting an invitation creates the member, person and account under one lock
  invitations: {
    accounts: 'owned by sessions; used in invitations.accept.ts',
    companies: 'owned by companies; used in invitations.repository.ts',
    members: 'owned by members; used in invitations.accept.ts invitations.repository.ts',
    people: 'owned by members; used in invitations.accept.ts invitations.repository.ts',
  },
  // the invoice document is rendered from one query over invoice, client, contact and contract
  'invoice-documents': {
    clients: 'owned by clients; used in invoice-documents.repository.ts',
    contacts: 'owned by contacts; used in invoice-documents.repository.ts',
    invoice_rows: 'owned by invoices; used in invoice-documents.repository.ts',
    invoices: 'owned by invoices; used in invoice-documents.repository.ts',
  },
  // the invoice's parties and row rules are read in its own SQL
  invoices: {
    clients: 'owned by clients; used in invoice-parties.ts',
    contacts: 'owned by contacts; used in invoice-parties.ts',
    contracts: 'owned by contracts; used in invoice-parties.ts',
    invoice_sellers: 'owned by invoice-sellers; used in invoice-parties.ts',
    people: 'owned by members; used in invoice-parties.ts',
  },
  // a job's actor: its member and company, read with the job
  jobs: {
    companies: 'owned by companies; used in jobs.repository.ts',
    members: 'owned by members; used in jobs.repository.ts',
  },
  // monitors are checked against clients and members
  monitors: {
    clients: 'owned by clients; used in monitors.repository.ts',
    members: 'owned by members; used in monitors.repository.ts',
  },
  // authentication reads keys, members, sessions and companies
  platform: {
    api_keys: 'owned by auth; used in auth.ts',
    companies: 'owned by companies; used in main.ts auth.ts session-auth.ts system-actor.ts',
    members: 'owned by members; used in auth.ts session-auth.ts',
    sessions: 'owned by sessions; used in session-auth.ts',
  },
  // a field in use by a contract row is refused
  'product-fields': {
    contract_rows: 'owned by contracts; used in product-fields.repository.ts',
    contracts: 'owned by contracts; used in product-fields.repository.ts',
    products: 'owned by products; used in product-fields.repository.ts',
  },
  // a product in use is refused; the company currency is the default price currency
  products: {
    contract_rows: 'owned by contracts; used in products.repository.ts',
    contracts: 'owned by contracts; used in products.repository.ts',
    invoice_rows: 'owned by invoices; used in products.repository.ts',
    taxes: 'owned by taxes; used in products.repository.ts',
  },
  // projects are listed with their client, type and task counts
  projects: {
    clients: 'owned by clients; used in projects.repository.ts',
    project_types: 'owned by project-types; used in projects.repository.ts',
    tasks: 'owned by tasks; used in projects.repository.ts',
  },
  // reclaimable time is found over invoices, tasks and time entries
  reclaims: {
    invoice_row_entries: 'owned by invoices; used in reclaims.repository.ts',
    invoices: 'owned by invoices; used in reclaims.repository.ts',
    tasks: 'owned by tasks; used in reclaims.repository.ts',
    time_entries: 'owned by time-entries; used in reclaims.repository.ts',
  },
  // the reports aggregate across modules in hand-written SQL
  reports: {
    agreements: 'owned by agreements; used in reports.repository.ts reports.sql.ts',
    invoice_rows: 'owned by invoices; used in reports.bi.repository.ts',
    invoices: 'owned by invoices; used in reports.bi.repository.ts reports.repository.ts',
    tasks: 'owned by tasks; used in reports.sql.ts',
    time_entries: 'owned by time-entries; used in reports.repository.ts reports.sql.ts',
    topics: 'owned by topics; used in reports.sql.ts',
  },
  // one search query spans contacts, projects and tasks
  search: {
    contacts: 'owned by contacts; used in search.repository.ts',
    projects: 'owned by projects; used in search.repository.ts',
    tasks: 'owned by tasks; used in search.repository.ts',
  },
  // a session names its member, person and company
  sessions: {
    companies: 'owned by companies; used in sessions.repository.ts',
    members: 'owned by members; used in sessions.accounts.ts sessions.repository.ts',
    people: 'owned by members; used in sessions.repository.ts',
  },
  // automations act on tasks, add activities and notify, fed by the outbox's events
  'task-automations': {
    activities: 'owned by activities; used in task-automations.actions.ts',
    events: 'owned by platform; used in task-automations.runner.ts (the queue is drained with its events)',
    notifications: 'owned by background; used in task-automations.actions.ts',
    tasks: 'owned by tasks; used in task-automations.repository.ts task-automations.runner.ts',
  },
  // relations are checked against both tasks
  'task-relations': {
    tasks: 'owned by tasks; used in task-relations.repository.ts',
  },
  // the task list joins client, project, tracked time and master tasks; visibility follows delegations
  tasks: {
    clients: 'owned by clients; used in tasks.repository.ts',
    delegations: "owned by delegations; used in tasks.visibility.ts (a delegate sees the delegator's tasks)",
    projects: 'owned by projects; used in tasks.repository.ts',
    time_entries: 'owned by time-entries; used in tasks.copies.ts tasks.derived.ts',
    workflow_master_tasks: 'owned by workflow-templates; used in tasks.repository.ts',
  },
  // an entry is checked against its task and member
  'time-entries': {
    members: 'owned by members; used in time-entries.repository.ts',
    tasks: 'owned by tasks; used in time-entries.repository.ts',
  },
  // the webhook API reads the outbox and the company's settings
  webhooks: {
    events: 'owned by platform; used in webhooks.repository.ts',
  },
  // role assignments are checked against tasks and client members
  'workflow-roles': {
    client_members: 'owned by client-members; used in workflow-roles.repository.ts',
    clients: 'owned by clients; used in workflow-roles.repository.ts',
    tasks: 'owned by tasks; used in workflow-roles.repository.ts',
  },
  // applying a template reads clients, projects and tasks in its own SQL (its task writes are the tasks module's)
  'workflow-templates': {
    client_group_links: 'owned by client-groups; used in workflows.jobs.ts',
    clients: 'owned by clients; used in instances.repository.ts workflows.jobs.ts workflows.repository.ts',
    jobs: 'owned by jobs; used in workflows.jobs.ts',
    projects: 'owned by projects; used in instances.repository.ts workflows.events.ts',
    tasks: 'owned by tasks; used in workflows.events.ts workflows.repository.ts',
  },
};
