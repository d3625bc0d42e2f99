import type { InvitationListParams } from './invitations.schemas.ts';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListOptions, type ListFilters } from '../../platform/lists.ts';
import { splitList } from '../../platform/fields.ts';
import { firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { INVITATION_DAYS, type InvitationRecord, type InvitationStatus } from './invitations.schemas.ts';

export const invitations = tenantTable('invitations', { alias: 'i', visible: null });

export const INVITATION_LIST_OPTIONS: ListOptions = {
  sortable: { id: 'i.id', created_at: 'i.created_at', expires_at: 'i.expires_at' },
  defaultSort: '-id',
};

/** expired is not stored: a pending row past its expires_at reads as expired. */
const statusOf = sql<InvitationStatus>`case when i.state = 'pending' and i.expires_at <= now() then 'expired' else i.state end`;
/** The link's expiry from now, to the millisecond like every stored time. */
export const expiresFromNow = () =>
  sql<string>`date_trunc('milliseconds', now()) + make_interval(days => ${INVITATION_DAYS})`;

function withMember(query: BaseQuery<'invitations', 'i'>) {
  return query
    .innerJoin('members as m', (join) =>
      join.onRef('m.company_id', '=', 'i.company_id').onRef('m.id', '=', 'i.member_id'),
    )
    .innerJoin('people as p', (join) =>
      join.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'),
    );
}
type Query = ReturnType<typeof withMember>;

const project = (query: Query) =>
  query.select([
    'i.id',
    'i.member_id',
    'm.person_id',
    'i.email',
    'p.name',
    'p.surname',
    'i.role',
    statusOf.as('status'),
    'i.created_at',
    'i.expires_at',
  ]);

function applyFilters(query: Query, filters: ListFilters<InvitationListParams>) {
  const statuses = splitList(filters.status);
  return statuses ? query.where(statusOf, 'in', statuses as InvitationStatus[]) : query;
}

export function listInvitations(ctx: Ctx, params: InvitationListParams) {
  return listPage<InvitationRecord, InvitationListParams>(ctx, {
    listId: 'invitations',
    params,
    options: INVITATION_LIST_OPTIONS,
    idColumn: 'i.id',
    project,
    base: (filters, c) => applyFilters(withMember(invitations.base(c)), filters),
  });
}

export async function findInvitation(ctx: Ctx, id: number): Promise<InvitationRecord | undefined> {
  return (await project(withMember(invitations.base(ctx)))
    .where('i.id', '=', id)
    .executeTakeFirst()) as InvitationRecord | undefined;
}

/** The invitation row under a lock, with what it reads as now. */
export const lockInvitation = (ctx: Ctx, id: number) =>
  invitations
    .base(ctx)
    .where('i.id', '=', id)
    .select(['i.id', 'i.member_id', 'i.email', statusOf.as('status')])
    .forUpdate()
    .executeTakeFirst();

/** The open (pending, expired or not) invitation of a member, if any. */
export const openInvitationOf = (ctx: Ctx, memberId: number) =>
  invitations
    .base(ctx)
    .where('i.member_id', '=', memberId)
    .where('i.state', '=', 'pending')
    .select('i.id')
    .executeTakeFirst();

// tenant: deliberate SQL: a token names its company; nothing else is known before it is checked.
export interface TokenRow {
  id: number;
  company_id: string;
  company_name: string;
  member_id: number;
  person_id: number;
  email: string;
  role: 'member' | 'admin';
  name: string;
  surname: string | null;
  usable: boolean;
}

export function findByToken(db: Executor, hash: Buffer, lock: boolean): Promise<TokenRow | undefined> {
  const query = db
    .selectFrom('invitations as i')
    .innerJoin('companies as c', 'c.id', 'i.company_id')
    .innerJoin('members as m', (join) =>
      join.onRef('m.company_id', '=', 'i.company_id').onRef('m.id', '=', 'i.member_id'),
    )
    .innerJoin('people as p', (join) =>
      join.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'),
    )
    .select([
      'i.id',
      'i.company_id',
      'c.name as company_name',
      'i.member_id',
      'm.person_id',
      'i.email',
      'i.role',
      'p.name',
      'p.surname',
      sql<boolean>`i.state = 'pending' and i.expires_at > now() and m.status in ('pending', 'limited')`.as('usable'),
    ])
    .where('i.token_hash', '=', hash);
  return firstRecord<TokenRow>(lock ? query.forUpdate(['i', 'm']) : query);
}
