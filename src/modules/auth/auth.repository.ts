import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { nowStamp, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import {
  KEY_LIST_OPTIONS,
  ROTATION_GRACE_HOURS,
  type ApiKeyListParams,
  type ApiKeyRecord,
  type MeRecord,
} from './auth.schemas.ts';

/** Revoked keys stay rows (is_active false): there is no soft delete. */
export const apiKeys = tenantTable('api_keys', { alias: 'k' });

/** The masked columns only: key_hash is never selected, so it cannot leak through a response. */
function project(query: BaseQuery<'api_keys', 'k'>) {
  return query.select([
    'k.id',
    'k.name',
    'k.key_prefix',
    'k.auth_type',
    'k.kind',
    'k.scopes',
    'k.person_id',
    // A rotated key whose grace has ended no longer works: it reads as inactive like a revoked one.
    sql<boolean>`k.is_active and (k.grace_expires_at is null or k.grace_expires_at > now())`.as('is_active'),
    'k.last_used_at',
    'k.expires_at',
    'k.grace_expires_at',
    'k.ip_allowlist',
    'k.created_at',
  ]);
}

export function listKeys(ctx: Ctx, params: ApiKeyListParams) {
  return listPage<ApiKeyRecord, ApiKeyListParams>(ctx, {
    listId: 'api_keys',
    params,
    options: KEY_LIST_OPTIONS,
    idColumn: 'k.id',
    project,
    base: () => apiKeys.base(ctx),
  });
}

export async function findKey(ctx: Ctx, id: number): Promise<ApiKeyRecord | undefined> {
  return firstRecord<ApiKeyRecord>(project(apiKeys.base(ctx).where('k.id', '=', id)));
}

/** Locks the key row (revoked or not) for the rest of the transaction, with what rotation copies and checks. */
export async function lockKey(ctx: Ctx, id: number) {
  return apiKeys
    .base(ctx)
    .where('k.id', '=', id)
    .select([
      'k.id',
      'k.name',
      'k.kind',
      'k.scopes',
      'k.person_id',
      'k.is_active',
      'k.expires_at',
      'k.ip_allowlist',
      'k.grace_expires_at',
      'k.rotated_to_id',
    ])
    .forUpdate()
    .executeTakeFirst();
}

// Key writes stamp updated_at with the plain clock (keys carry no ETag), so they do not go through apiKeys.update.

/** Starts the old key's grace period and links it to its successor; answers when the grace ends. */
export async function markRotated(ctx: Ctx, id: number, newId: number): Promise<string> {
  const row = await scoped
    .update(ctx, 'api_keys')
    .set({
      grace_expires_at: sql<string>`date_trunc('milliseconds', now()) + make_interval(hours => ${ROTATION_GRACE_HOURS})`,
      rotated_to_id: newId,
      updated_at: nowStamp(),
    })
    .where('id', '=', id)
    .returning('grace_expires_at')
    .executeTakeFirstOrThrow();
  return row.grace_expires_at as string;
}

export async function revokeKey(ctx: Ctx, id: number): Promise<void> {
  await scoped
    .update(ctx, 'api_keys')
    .set({ is_active: false, revoked_at: nowStamp(), updated_at: nowStamp() })
    .where('id', '=', id)
    .execute();
}

export async function findKeyIdentity(ctx: Ctx, id: number): Promise<MeRecord['key'] | undefined> {
  return apiKeys
    .base(ctx)
    .where('k.id', '=', id)
    .select(['k.id', 'k.name', 'k.kind', 'k.scopes', 'k.key_prefix'])
    .executeTakeFirst();
}
