import { customFieldConditions } from '../custom-fields/index.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { MEMBER_LIST_OPTIONS, type MemberListParams, type MemberRecord } from './members.schemas.ts';

/** Members are visible to every key of the company, personal keys included (the team list). */
export const members = tenantTable('members', { alias: 'm' });
/** A member's name and e-mail live on its person. */
export const people = tenantTable('people', { alias: 'p' });

/** A member as stored: credits are numeric text (exact) until they are turned into JSON numbers. */
type MemberRow = Omit<MemberRecord, 'flextime_credit' | 'vacation_credit'> & {
  flextime_credit: string | null;
  vacation_credit: string | null;
};

function withPerson(query: BaseQuery<'members', 'm'>) {
  return query.innerJoin('people as p', (join) =>
    join.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'),
  );
}
type Query = ReturnType<typeof withPerson>;

function project(query: Query) {
  return query.select([
    'm.id',
    'm.person_id',
    'p.name',
    'p.surname',
    'p.email',
    'p.phone',
    'm.role',
    'm.status',
    'm.title',
    'm.initials',
    'm.locale_code',
    'm.region_code',
    'm.birthday',
    'm.timezone',
    'm.address_city',
    'm.address_country_code',
    'm.avatar',
    'm.group_ids',
    'm.ext_user_id',
    'm.member_type',
    'm.hr_lead_id',
    'm.flextime_credit',
    'm.vacation_credit',
    'm.custom_fields',
    'm.created_at',
    'm.updated_at',
  ]);
}

/** numeric(14,2) text to a JSON number: two decimals always have an exact shortest decimal form. */
const creditOut = (value: string | null): number | null => (value === null ? null : Number(value));

function toRecord(row: MemberRow): MemberRecord {
  return {
    ...row,
    flextime_credit: creditOut(row.flextime_credit),
    vacation_credit: creditOut(row.vacation_credit),
  };
}

function applyFilters(query: Query, filters: ListFilters<MemberListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('m.status', 'in', statuses);
  const roles = splitList(filters.role);
  if (roles) q = q.where('m.role', 'in', roles);
  if (filters.q !== undefined) {
    const like = likeContains(filters.q);
    q = q.where((eb) =>
      eb.or([eb('p.name', 'ilike', like), eb('p.surname', 'ilike', like), eb('p.email', 'ilike', like)]),
    );
  }
  for (const condition of customFieldConditions(filters, 'm')) q = q.where(condition);
  return q;
}

export async function listMembers(ctx: Ctx, params: MemberListParams) {
  const page = await listPage<MemberRow, MemberListParams>(ctx, {
    listId: 'members',
    params,
    options: MEMBER_LIST_OPTIONS,
    idColumn: 'm.id',
    project,
    base: (filters) => applyFilters(withPerson(members.base(ctx)), filters),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findMember(ctx: Ctx, id: number): Promise<MemberRecord | undefined> {
  const row = await project(withPerson(members.base(ctx)).where('m.id', '=', id)).executeTakeFirst();
  return row ? toRecord(row as MemberRow) : undefined;
}

/** Locks the member row for the rest of the transaction; the service checks who it is and its version. */
export async function lockMember(ctx: Ctx, id: number) {
  return members
    .base(ctx)
    .where('m.id', '=', id)
    .select(['m.id', 'm.person_id', 'm.updated_at', 'm.role', 'm.status', 'm.account_id'])
    .forUpdate()
    .executeTakeFirst();
}

/** true when `personId` is the person of a member of this company. */
export async function isMemberPerson(ctx: Ctx, personId: number): Promise<boolean> {
  const row = await members.base(ctx).select('m.id').where('m.person_id', '=', personId).executeTakeFirst();
  return row !== undefined;
}

/** true when `personId` is the person of an active member of this company (whom a personal key may act for). */
export async function isActiveMemberPerson(ctx: Ctx, personId: number): Promise<boolean> {
  const row = await members
    .base(ctx)
    .select('m.id')
    .where('m.person_id', '=', personId)
    .where('m.status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

/** The person with its member row's id and role (both null for a person without one): who a key acts for. */
export async function personWithRole(ctx: Ctx, personId: number) {
  return people
    .base(ctx)
    .leftJoin('members as m', (join) =>
      join.onRef('m.company_id', '=', 'p.company_id').onRef('m.person_id', '=', 'p.id'),
    )
    .select(['p.id as person_id', 'm.id as member_id', 'p.name', 'p.surname', 'p.email', 'm.role'])
    .where('p.id', '=', personId)
    .executeTakeFirst();
}

/** The person id of a member of this company (members are never deleted), or undefined. */
export async function personOfMember(ctx: Ctx, memberId: number): Promise<number | undefined> {
  const row = await members.base(ctx).where('m.id', '=', memberId).select('m.person_id').executeTakeFirst();
  return row?.person_id;
}

/** The person's current name and surname, to derive initials when only one of them changes. */
export async function personName(ctx: Ctx, personId: number) {
  return people.base(ctx).select(['p.name', 'p.surname']).where('p.id', '=', personId).executeTakeFirstOrThrow();
}

/** Locks the company's other active owners and counts them (the last-owner rule). */
export async function lockActiveOwners(ctx: Ctx, exceptId: number): Promise<number> {
  const rows = await members
    .base(ctx)
    .where('m.role', '=', 'owner')
    .where('m.status', '=', 'active')
    .where('m.id', '!=', exceptId)
    .select('m.id')
    .forUpdate()
    .execute();
  return rows.length;
}
