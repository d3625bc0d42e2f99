import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { CompanyInfo, Ctx } from './context.ts';

/** Key id of the service's own background work; events record it as no key. */
export const SYSTEM_KEY_ID = 0;

/** The CompanyInfo of `companies as c`, built in the query that reads it. */
export const companyJson =
  () => sql<CompanyInfo>`json_build_object('id', c.id, 'name', c.name, 'timezone', c.timezone, 'currency', c.currency,
  'subscription_status', c.subscription_status, 'plan', c.plan, 'features', c.features)`;

/**
 * The company as seen by the service itself (background work such as periodic maintenance, or a job
 * whose key is gone): no key, no person, sees everything. Undefined when the company does not exist.
 */
export async function systemActor(db: Executor, companyId: string): Promise<Omit<Ctx, 'db' | 'requestId'> | undefined> {
  const row = await db
    .selectFrom('companies as c')
    .select(companyJson().as('company'))
    .where('c.id', '=', companyId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    companyId,
    company: row.company,
    key: { id: SYSTEM_KEY_ID, kind: 'integration', scopes: [], personId: null },
    actor: { personId: null, role: null, restricted: false },
  };
}

/**
 * Why the company may no longer have work done through the API (the pipeline's plan and subscription gates,
 * as background work sees them), or null. Checked by jobs when claimed and before each chunk.
 */
export function companyRefusal(company: CompanyInfo): string | null {
  if (company.plan !== 'pro') return 'the company plan no longer includes API access';
  if (company.subscription_status !== 'active') return 'the company subscription has lapsed';
  return null;
}
