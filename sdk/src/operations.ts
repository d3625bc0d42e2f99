// Lookups over the generated operation table (operations.gen.ts), which comes from the served OpenAPI document:
// the SDK keeps no hand list of paths, so a route added to the service is known here after `npm run sdk:types`.
import { OPERATIONS, type OperationInfo } from './operations.gen.ts';

export { OPERATIONS, type OperationInfo };

/** `/invoices/{invoice_id}/mark-paid` → a pattern matching `/invoices/12/mark-paid`. */
function patternOf(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`);
}

const compiled = OPERATIONS.map((op) => ({ op: op as OperationInfo, pattern: patternOf(op.path) }));

/** The operation a concrete method and path (relative to /api/v3, query excluded) belongs to. */
export function findOperation(method: string, path: string): OperationInfo | undefined {
  const upper = method.toUpperCase();
  const bare = path.split('?')[0]!;
  // An exact template (/tasks/bulk-action) wins over a parameterised one (/tasks/{task_id}).
  const exact = compiled.find((c) => c.op.method === upper && c.op.path === bare);
  return exact?.op ?? compiled.find((c) => c.op.method === upper && c.pattern.test(bare))?.op;
}

/** A POST whose Idempotency-Key the service honours (the document's x-idempotent). */
export function isIdempotent(method: string, path: string): boolean {
  return findOperation(method, path)?.idempotent ?? false;
}

export function operationById(id: string): OperationInfo | undefined {
  return compiled.find((c) => c.op.id === id)?.op;
}
