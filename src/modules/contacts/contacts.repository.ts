import { sql, type RawBuilder } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { isoz, likeContains, nextStamp } from '../../platform/sql.ts';
import { clientIdVisible } from '../../platform/visibility.ts';
import { CONTACT_LIST_OPTIONS, type ContactRecord } from './contacts.schemas.ts';

export type ContactColumns = Omit<ContactRecord, 'id' | 'created_at' | 'updated_at' | 'custom_fields' | 'person_id'> & { custom_fields: string | null };

const PLAIN = ['id', 'client_id', 'person_id', 'is_primary', 'name', 'surname', 'email', 'job_title', 'mobile_phone', 'work_phone', 'locale_code', 'birthday', 'ext_contact_id', 'custom_fields'] as const;

/** Contact columns for JSON built in SQL (inlined in clients), timestamps already in the API's form. */
export function contactJsonColumns(alias: string): RawBuilder<unknown> {
  const cols = PLAIN.map((c) => sql.ref(`${alias}.${c}`));
  return sql`${sql.join(cols)}, ${isoz(`${alias}.created_at`)} as created_at, ${isoz(`${alias}.updated_at`)} as updated_at`;
}

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('contacts as ct')
    .where('ct.company_id', '=', ctx.companyId)
    .where('ct.deleted_at', 'is', null)
    .where(clientIdVisible(ctx, 'ct.company_id', 'ct.client_id'));
}

function project(query: ReturnType<typeof base>) {
  return query.select([...PLAIN.map((c) => `ct.${c}` as const), 'ct.created_at', 'ct.updated_at']);
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  if (filters.client_id !== undefined) q = q.where('ct.client_id', '=', filters.client_id as number);
  if (filters.email !== undefined) q = q.where(sql`lower(ct.email)`, '=', (filters.email as string).toLowerCase());
  if (filters.q !== undefined) {
    const like = likeContains(filters.q as string);
    q = q.where((eb) => eb.or([eb('ct.name', 'ilike', like), eb('ct.surname', 'ilike', like), eb('ct.email', 'ilike', like)]));
  }
  return q;
}

export async function listContacts(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'contacts', params, CONTACT_LIST_OPTIONS);
  return paginate<ContactRecord>(ctx, {
    listId: 'contacts', base: applyFilters(base(ctx), filters), idColumn: 'ct.id', project: project as never,
    options: CONTACT_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findContact(ctx: Ctx, id: number): Promise<ContactRecord | undefined> {
  return project(base(ctx).where('ct.id', '=', id)).executeTakeFirst() as Promise<ContactRecord | undefined>;
}

export async function lockContact(ctx: Ctx, id: number) {
  return base(ctx).where('ct.id', '=', id).select(['ct.id', 'ct.client_id', 'ct.updated_at']).forUpdate().executeTakeFirst();
}

export async function insertContact(ctx: Ctx, values: Partial<ContactColumns> & { name: string; client_id: number }): Promise<number> {
  const row = await ctx.db.insertInto('contacts').values({ ...values, company_id: ctx.companyId } as never).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateContact(ctx: Ctx, id: number, values: Partial<ContactColumns>): Promise<void> {
  await ctx.db.updateTable('contacts').set({ ...values, updated_at: nextStamp() } as never).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteContact(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'contacts', id);
}

/** One primary contact per client: making one primary demotes the others (a change to each of them). */
export async function demoteOtherPrimaries(ctx: Ctx, clientId: number, keepId: number): Promise<number[]> {
  const rows = await ctx.db.updateTable('contacts').set({ is_primary: 0, updated_at: nextStamp() })
    .where('company_id', '=', ctx.companyId).where('client_id', '=', clientId).where('id', '!=', keepId)
    .where('is_primary', '=', 1).where('deleted_at', 'is', null).returning('id').execute();
  return rows.map((r) => r.id);
}
