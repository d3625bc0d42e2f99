import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { generateKey } from '../../platform/keys.ts';
import type { CompanySeeder } from '../../platform/modules.ts';
import { expandScopes } from '../../platform/scopes.ts';
import { nextStamp } from '../../platform/sql.ts';
import { insertOwnerKey } from '../auth/index.ts';
import { addPersonMember } from '../members/index.ts';
import type { CompanyCreateBody, CompanyCreatedRecord, CompanyUpdateBody, MemberAddBody } from './companies.schemas.ts';

/** Platform administration (operator API and CLI): no tenant context, the company is the subject. */

export function assertTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw new AppError('VALIDATION_ERROR', `Unknown time zone: ${timezone}`, {
      reason: 'INVALID_TIMEZONE',
      field: 'timezone',
    });
  }
}

/** Joins the caller's transaction when there is one (e.g. demo provisioning), else opens its own. */
function atomically<T>(db: Executor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Tx) : db.transaction().execute(fn);
}

/**
 * A company with its owner and an admin key. `seeders` (the modules' declared ones, registry.seeders) add
 * the default records every company starts with, in the same transaction.
 */
export async function createCompany(
  db: Executor,
  body: CompanyCreateBody,
  seeders: readonly CompanySeeder[],
): Promise<CompanyCreatedRecord> {
  const timezone = body.timezone ?? 'UTC';
  assertTimezone(timezone);
  return atomically(db, async (tx) => {
    const companyId = randomUUID();
    await tx
      .insertInto('companies')
      .values({ id: companyId, name: body.name, timezone, currency: body.currency ?? 'EUR' })
      .execute();
    const ownerName = body.owner?.name ?? 'Owner';
    const ownerEmail = body.owner?.email ?? null;
    const owner = await addPersonMember(tx, companyId, {
      name: ownerName,
      surname: body.owner?.surname,
      email: ownerEmail as string,
      role: 'owner',
      status: 'active',
    });
    const key = generateKey();
    const scopes = expandScopes(['admin']);
    const apiKeyId = await insertOwnerKey(tx, companyId, { key, scopes, personId: owner.person_id });
    for (const seed of seeders) await seed(tx, companyId);
    return {
      company_id: companyId,
      owner: { ...owner, name: ownerName, email: ownerEmail },
      api_key: { id: apiKeyId, full_key: key.fullKey, scopes },
    };
  });
}

const COMPANY_COLUMNS = [
  'id',
  'name',
  'timezone',
  'currency',
  'subscription_status',
  'plan',
  'features',
  'created_at',
  'updated_at',
] as const;

export async function getCompany(db: Executor, companyId: string) {
  const company = await db
    .selectFrom('companies')
    .select(COMPANY_COLUMNS)
    .where('id', '=', companyId)
    .executeTakeFirst();
  if (!company) throw new AppError('NOT_FOUND', 'Company not found');
  return company as typeof company & { features: { billing: boolean; analytics: boolean; drive: boolean } };
}

export async function updateCompany(db: Executor, companyId: string, body: CompanyUpdateBody) {
  if (body.timezone) assertTimezone(body.timezone);
  return atomically(db, async (tx) => {
    await getCompany(tx, companyId);
    const { features, ...plain } = body;
    await tx
      .updateTable('companies')
      .set({
        ...plain,
        ...(features ? { features: sql<string>`features || ${JSON.stringify(features)}::jsonb` } : {}),
        updated_at: nextStamp(),
      })
      .where('id', '=', companyId)
      .execute();
    return getCompany(tx, companyId);
  });
}

export async function addMember(db: Executor, companyId: string, body: MemberAddBody) {
  return atomically(db, async (tx) => {
    await getCompany(tx, companyId);
    return addPersonMember(tx, companyId, body);
  });
}
