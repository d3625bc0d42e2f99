import { customFieldConditions } from '../custom-fields/index.ts';
import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { cachedQuery } from '../../platform/query-cache.ts';
import { isoz, likeContains, nextStamp } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { CONTACT_LIST_OPTIONS, type ContactListParams, type ContactRecord } from './contacts.schemas.ts';

/** A contact is visible exactly when its client is. */
export const contacts = tenantTable('contacts', {
  alias: 'ct',
  softDelete: true,
});
type Query = BaseQuery<'contacts', 'ct'>;

const PLAIN = [
  'id',
  'client_id',
  'person_id',
  'is_primary',
  'name',
  'surname',
  'email',
  'job_title',
  'mobile_phone',
  'work_phone',
  'locale_code',
  'birthday',
  'ext_contact_id',
  'custom_fields',
] as const;

/** Contact columns for JSON built in SQL (inlined in clients), timestamps already in the API's form. */
export function contactJsonColumns(alias: string): RawBuilder<unknown> {
  const cols = PLAIN.map((c) => sql.ref(`${alias}.${c}`));
  return sql`${sql.join(cols)}, ${isoz(`${alias}.created_at`)} as created_at, ${isoz(`${alias}.updated_at`)} as updated_at`;
}

/**
 * The client's live contacts as JSON, primary first, at most `limit`: a correlated subquery for a client query
 * aliased `c` (the client list inlines them in its one statement).
 */
export function inlineContacts<T>(limit: number): RawBuilder<T> {
  return sql<T>`(select coalesce(json_agg(x), '[]') from (select ${contactJsonColumns('ct')} from contacts ct
      where ct.company_id = c.company_id and ct.client_id = c.id and ct.deleted_at is null
      order by ct.is_primary desc, ct.id limit ${limit}) x)`;
}

function project(query: Query) {
  return query.select([...PLAIN.map((c) => `ct.${c}` as const), 'ct.created_at', 'ct.updated_at']);
}

function applyFilters(query: Query, filters: ListFilters<ContactListParams>) {
  let q = query;
  if (filters.client_id !== undefined) q = q.where('ct.client_id', '=', filters.client_id);
  if (filters.email !== undefined) q = q.where(sql`lower(ct.email)`, '=', filters.email.toLowerCase());
  if (filters.q !== undefined) {
    const like = likeContains(filters.q);
    q = q.where((eb) =>
      eb.or([eb('ct.name', 'ilike', like), eb('ct.surname', 'ilike', like), eb('ct.email', 'ilike', like)]),
    );
  }
  for (const condition of customFieldConditions(filters, 'ct')) q = q.where(condition);
  return q;
}

export function listContacts(ctx: Ctx, params: ContactListParams) {
  return listPage<ContactRecord, ContactListParams>(ctx, {
    listId: 'contacts',
    params,
    options: CONTACT_LIST_OPTIONS,
    idColumn: 'ct.id',
    project,
    base: (filters) => applyFilters(contacts.base(ctx), filters),
  });
}

const contactById = cachedQuery((ctx: Ctx, id: number) => project(contacts.base(ctx).where('ct.id', '=', id)));

export async function findContact(ctx: Ctx, id: number): Promise<ContactRecord | undefined> {
  return (await contactById(ctx, id))[0] as ContactRecord | undefined;
}

/** Locks the live, visible contact; the service reads its client to tell a move from a stay. */
export async function lockContact(ctx: Ctx, id: number) {
  return contacts
    .base(ctx)
    .where('ct.id', '=', id)
    .select(['ct.id', 'ct.client_id', 'ct.updated_at'])
    .forUpdate()
    .executeTakeFirst();
}

/** One primary contact per client: making one primary demotes the others (a change to each of them). */
export async function demoteOtherPrimaries(ctx: Ctx, clientId: number, keepId: number): Promise<number[]> {
  const rows = await scoped
    .update(ctx, 'contacts')
    .set({ is_primary: 0, updated_at: nextStamp() })
    .where('client_id', '=', clientId)
    .where('id', '!=', keepId)
    .where('is_primary', '=', 1)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
