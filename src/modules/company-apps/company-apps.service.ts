import type { CompanyAppListParams } from './company-apps.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { appEntry } from './company-apps.catalogue.ts';
import type { CompanyAppRecord } from './company-apps.schemas.ts';
import { activateFeature } from '../companies/index.ts';
import * as repo from './company-apps.repository.ts';

function toRecord(ctx: Ctx, row: repo.AppRow): CompanyAppRecord {
  const entry = appEntry(row.key);
  return {
    id: row.id,
    key: row.key,
    name: entry.name,
    description: entry.description,
    active: row.active,
    included_in_plan: entry.plans.includes(ctx.company.plan),
  };
}

export async function listApps(ctx: Ctx, params: CompanyAppListParams) {
  const page = await repo.listApps(ctx, params);
  return { data: page.data.map((row) => toRecord(ctx, row)), meta: page.meta };
}

/**
 * Switches an app on: its feature flag flips in the request's transaction. An active app answers 200
 * unchanged (a retried activation is harmless); an app the plan lacks is refused before anything is written.
 */
export async function activateApp(ctx: Ctx, id: number): Promise<CompanyAppRecord> {
  return inTransaction(ctx, async (tx) => {
    const row = orNotFound(await repo.findApp(tx, id), 'App');
    const entry = appEntry(row.key);
    if (!entry.plans.includes(tx.company.plan))
      fail('PLAN_UPGRADE_REQUIRED', `The ${tx.company.plan} plan does not include the ${entry.name} app`, {
        app: entry.key,
        plan: tx.company.plan,
        required_plans: entry.plans,
      });
    if (row.active) return toRecord(tx, row);
    await activateFeature(tx, row.key);
    return toRecord(tx, orNotFound(await repo.findApp(tx, id), 'App'));
  });
}
