/**
 * The spec's idempotency list: the POST paths where Idempotency-Key is honoured. It is the spec's
 * own list, so resources not built yet are in it already; a route is covered when its path matches.
 */
/** The spec's covered exact paths (relative to /api/v3). */
const EXACT = new Set([
  '/agreements',
  '/budgets',
  '/calendar',
  '/client-groups',
  '/client-members',
  '/clients',
  '/clients/bulk-member-action',
  '/contacts',
  '/content-templates',
  '/contracts',
  '/custom-fields',
  '/delegations',
  '/digitizations',
  '/documents',
  '/flextime',
  '/folder-templates',
  '/folders',
  '/integrations/reference-data/sync',
  '/invoice-sellers',
  '/invoices',
  '/members',
  '/monitors',
  '/notes',
  '/product-fields',
  '/products',
  '/project-workflows',
  '/projects',
  '/roles',
  '/suppliers',
  '/task-automations',
  '/task-relations',
  '/tasks',
  '/taxes',
  '/teams',
  '/time-entries',
  '/time-entries/bulk',
  '/topics',
  '/workflow-roles',
  '/workflow-templates',
  '/tasks/bulk-action',
]);

/** The spec's covered path shapes; {id} is any numeric id, the replayed event id is a string. */
const SHAPES = [
  '/clients/{id}/documents-folder',
  '/clients/{id}/emails',
  '/clients/{id}/invoices',
  '/clients/{id}/monitors',
  '/company/apps/{id}/activate',
  '/content-templates/{id}/rows',
  '/contracts/{id}/apply',
  '/contracts/{id}/rows',
  '/contracts/{id}/rows/{id}/prices',
  '/invoices/{id}/export',
  '/invoices/{id}/mark-paid',
  '/invoices/{id}/mark-unpaid',
  '/invoices/{id}/refresh-payment-status',
  '/invoices/{id}/rows',
  '/invoices/{id}/send',
  '/members/{id}/agreements',
  '/notes/{id}/attachments',
  '/products/{id}/prices',
  '/project-workflows/{id}/apply',
  '/project-workflows/{id}/push',
  '/project-workflows/{id}/tasks',
  '/tasks/{id}/attachments',
  '/tasks/{id}/comments',
  '/tasks/{id}/complete',
  '/tasks/{id}/reopen',
  '/webhooks/{id}/deliveries/{event}/replay',
  '/workflow-templates/{id}/apply',
  '/workflow-templates/{id}/push',
  '/workflow-templates/{id}/tasks',
];

const SHAPE_PATTERNS = SHAPES.map((shape) => new RegExp(`^${shape.replace(/\{\w+\}/g, ':\\w+')}$`));

/** Decided once per route when it is declared (`/tasks/:task_id/complete` matches `/tasks/{id}/complete`). */
export function isIdempotentRoute(method: string, url: string): boolean {
  if (method !== 'POST') return false;
  const path = url.replace(/\/$/, '');
  return EXACT.has(path) || SHAPE_PATTERNS.some((re) => re.test(path));
}
