import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { likeContains, nextStamp } from '../../platform/sql.ts';
import { splitList } from '../../platform/fields.ts';
import { MEMBER_LIST_OPTIONS, type MemberRecord } from './members.schemas.ts';

/** A member as stored: credits are numeric text (exact) until they are turned into JSON numbers. */
type MemberRow = Omit<MemberRecord, 'flextime_credit' | 'vacation_credit'> & { flextime_credit: string | null; vacation_credit: string | null };

export interface PersonColumns { name: string; surname: string | null; email: string | null }
export interface MemberColumns {
  title: string | null;
  initials: string | null;
  locale_code: string | null;
  ext_user_id: string | null;
  member_type: string | null;
  hr_lead_id: number | null;
  /** Decimal text, written to numeric columns as is. */
  flextime_credit: string | null;
  vacation_credit: string | null;
}

/** Members are visible to every key of the company, personal keys included (the team list). */
function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('members as m')
    .innerJoin('people as p', (join) => join.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'))
    .where('m.company_id', '=', ctx.companyId);
}

function project(query: ReturnType<typeof base>) {
  return query.select([
    'm.id', 'm.person_id', 'p.name', 'p.surname', 'p.email', 'p.phone', 'm.role', 'm.status', 'm.title', 'm.initials', 'm.locale_code',
    'm.region_code', 'm.birthday', 'm.timezone', 'm.address_city', 'm.address_country_code', 'm.avatar', 'm.group_ids', 'm.ext_user_id',
    'm.member_type', 'm.hr_lead_id', 'm.flextime_credit', 'm.vacation_credit', 'm.custom_fields', 'm.created_at', 'm.updated_at',
  ]);
}

/** numeric(14,2) text to a JSON number: two decimals always have an exact shortest decimal form. */
const creditOut = (value: string | null): number | null => (value === null ? null : Number(value));

function toRecord(row: MemberRow): MemberRecord {
  return { ...row, flextime_credit: creditOut(row.flextime_credit), vacation_credit: creditOut(row.vacation_credit) } as MemberRecord;
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('m.status', 'in', statuses);
  const roles = splitList(filters.role as string | undefined);
  if (roles) q = q.where('m.role', 'in', roles);
  if (filters.q !== undefined) {
    const like = likeContains(filters.q as string);
    q = q.where((eb) => eb.or([eb('p.name', 'ilike', like), eb('p.surname', 'ilike', like), eb('p.email', 'ilike', like)]));
  }
  return q;
}

export async function listMembers(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'members', params, MEMBER_LIST_OPTIONS);
  const page = await paginate<MemberRow>(ctx, {
    listId: 'members', base: applyFilters(base(ctx), filters), idColumn: 'm.id', project: project as never,
    options: MEMBER_LIST_OPTIONS, params, filters, sort, after,
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findMember(ctx: Ctx, id: number): Promise<MemberRecord | undefined> {
  const row = await project(base(ctx).where('m.id', '=', id)).executeTakeFirst();
  return row ? toRecord(row as MemberRow) : undefined;
}

/** Locks the member row for the rest of the transaction; undefined when absent or another tenant's. */
export async function lockMember(ctx: Ctx, id: number) {
  return ctx.db.selectFrom('members').select(['id', 'person_id', 'updated_at'])
    .where('company_id', '=', ctx.companyId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** true when `personId` is the person of a member of this company. */
export async function isMemberPerson(ctx: Ctx, personId: number): Promise<boolean> {
  const row = await ctx.db.selectFrom('members').select('id').where('company_id', '=', ctx.companyId).where('person_id', '=', personId).executeTakeFirst();
  return row !== undefined;
}

export async function insertPerson(ctx: Ctx, values: PersonColumns): Promise<number> {
  const row = await ctx.db.insertInto('people').values({ ...values, phone: null, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function insertMember(ctx: Ctx, personId: number, values: Partial<MemberColumns> & { role: string; status: string }): Promise<number> {
  const row = await ctx.db.insertInto('members').values({ ...values, person_id: personId, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePerson(ctx: Ctx, personId: number, values: Partial<PersonColumns>): Promise<void> {
  await ctx.db.updateTable('people').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', personId).execute();
}

/** Always bumps updated_at, so the ETag changes even when only the person's name changed. */
export async function updateMember(ctx: Ctx, id: number, values: Partial<MemberColumns>): Promise<void> {
  await ctx.db.updateTable('members').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

/** The person's current name and surname, to derive initials when only one of them changes. */
export async function personName(ctx: Ctx, personId: number) {
  return ctx.db.selectFrom('people').select(['name', 'surname']).where('company_id', '=', ctx.companyId).where('id', '=', personId).executeTakeFirstOrThrow();
}
