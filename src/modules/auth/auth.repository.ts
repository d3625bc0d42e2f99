import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { nowStamp } from '../../platform/sql.ts';
import { KEY_LIST_OPTIONS, ROTATION_GRACE_HOURS, type ApiKeyRecord, type MeRecord } from './auth.schemas.ts';

export interface KeyColumns {
  name: string;
  kind: 'integration' | 'personal';
  scopes: string[];
  person_id: number | null;
  expires_at: string | null;
  ip_allowlist: string[] | null;
  key_prefix: string;
  key_hash: string;
}

function base(ctx: Ctx) {
  return ctx.db.selectFrom('api_keys as k').where('k.company_id', '=', ctx.companyId);
}

/** The masked columns only: key_hash is never selected, so it cannot leak through a response. */
function project(query: ReturnType<typeof base>) {
  return query.select([
    'k.id', 'k.name', 'k.key_prefix', 'k.auth_type', 'k.kind', 'k.scopes', 'k.person_id',
    // A rotated key whose grace has ended no longer works: it reads as inactive like a revoked one.
    sql<boolean>`k.is_active and (k.grace_expires_at is null or k.grace_expires_at > now())`.as('is_active'),
    'k.last_used_at', 'k.expires_at', 'k.grace_expires_at', 'k.ip_allowlist', 'k.created_at',
  ]);
}

export async function listKeys(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'api_keys', params, KEY_LIST_OPTIONS);
  return paginate<ApiKeyRecord>(ctx, {
    listId: 'api_keys', base: base(ctx), idColumn: 'k.id', project: project as never,
    options: KEY_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findKey(ctx: Ctx, id: number): Promise<ApiKeyRecord | undefined> {
  return project(base(ctx).where('k.id', '=', id)).executeTakeFirst() as Promise<ApiKeyRecord | undefined>;
}

/** Locks the key row (revoked or not) for the rest of the transaction; undefined when absent. */
export async function lockKey(ctx: Ctx, id: number) {
  return base(ctx)
    .where('k.id', '=', id)
    .select(['k.id', 'k.name', 'k.kind', 'k.scopes', 'k.person_id', 'k.is_active', 'k.expires_at', 'k.ip_allowlist', 'k.grace_expires_at', 'k.rotated_to_id'])
    .forUpdate()
    .executeTakeFirst();
}

export async function insertKey(ctx: Ctx, values: KeyColumns): Promise<number> {
  const row = await ctx.db.insertInto('api_keys').values({
    ...values, company_id: ctx.companyId, revoked_at: null, grace_expires_at: null, rotated_to_id: null, last_used_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Starts the old key's grace period and links it to its successor; answers when the grace ends. */
export async function markRotated(ctx: Ctx, id: number, newId: number): Promise<string> {
  const row = await ctx.db.updateTable('api_keys')
    .set({
      grace_expires_at: sql<string>`date_trunc('milliseconds', now()) + make_interval(hours => ${ROTATION_GRACE_HOURS})`,
      rotated_to_id: newId,
      updated_at: nowStamp(),
    })
    .where('company_id', '=', ctx.companyId).where('id', '=', id)
    .returning('grace_expires_at').executeTakeFirstOrThrow();
  return row.grace_expires_at as string;
}

export async function revokeKey(ctx: Ctx, id: number): Promise<void> {
  await ctx.db.updateTable('api_keys').set({ is_active: false, revoked_at: nowStamp(), updated_at: nowStamp() })
    .where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

/** true when the person is a member of this company whose status is active. */
export async function isActiveMember(ctx: Ctx, personId: number): Promise<boolean> {
  const row = await ctx.db.selectFrom('members').select('id')
    .where('company_id', '=', ctx.companyId).where('person_id', '=', personId).where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findKeyIdentity(ctx: Ctx, id: number): Promise<MeRecord['key'] | undefined> {
  return base(ctx).where('k.id', '=', id).select(['k.id', 'k.name', 'k.kind', 'k.scopes', 'k.key_prefix']).executeTakeFirst();
}

export async function findPerson(ctx: Ctx, personId: number): Promise<MeRecord['person'] | undefined> {
  return ctx.db.selectFrom('people as p')
    .leftJoin('members as m', (join) => join.onRef('m.company_id', '=', 'p.company_id').onRef('m.person_id', '=', 'p.id'))
    .select(['p.id as person_id', 'm.id as member_id', 'p.name', 'p.surname', 'p.email', 'm.role'])
    .where('p.company_id', '=', ctx.companyId).where('p.id', '=', personId)
    .executeTakeFirst();
}
