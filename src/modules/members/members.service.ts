import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { hasTier } from '../../platform/scopes.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import { assertCustomFieldValues } from '../custom-fields/index.ts';
import { initialsOf } from './members.people.ts';
import { customFieldsInput } from '../../platform/fields.ts';
import {
  CREDIT_LIMIT,
  type MemberCreateBody,
  type MemberListParams,
  type MemberRecord,
  type MemberUpdateBody,
} from './members.schemas.ts';
import { checkManagementAccess, managementColumns } from './members.management.ts';
import * as repo from './members.repository.ts';

type Credits = Pick<RowChanges<'members'>, 'flextime_credit' | 'vacation_credit'>;

const CREDIT_FIELDS = ['flextime_credit', 'vacation_credit'] as const;
/** A plain decimal with at most two places; String() of a JSON number gives its shortest exact form. */
const TWO_DECIMALS = /^-?\d+(\.\d{1,2})?$/;

/** Credits are money: nulled for keys without the financials tier, on every read and write response. */
function forKey(ctx: Ctx, member: MemberRecord): MemberRecord {
  if (hasTier(ctx.key.scopes, 'financials')) return member;
  return { ...member, flextime_credit: null, vacation_credit: null };
}

/** The credits in a PATCH body as decimal text for the numeric columns: the value never passes through arithmetic. */
function creditColumns(body: MemberUpdateBody): Credits {
  const out: Credits = {};
  for (const field of CREDIT_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (value === null) {
      out[field] = null;
      continue;
    }
    const text = String(value);
    if (!Number.isFinite(value) || Math.abs(value) >= CREDIT_LIMIT || !TWO_DECIMALS.test(text)) {
      throw domainValidation(
        'INVALID_AMOUNT',
        `${field} must be a number with at most 2 decimals and below 1e9 in size`,
        { field, value },
      );
    }
    out[field] = text;
  }
  return out;
}

/** Checks that need no record, in the order a caller can fix them: management fields, then tier, then If-Match. */
function checkUpdateRules(
  ctx: Ctx,
  body: MemberUpdateBody,
  credits: object,
  preconditionOf: () => Precondition,
): Precondition | undefined {
  checkManagementAccess(ctx, body);
  if (Object.keys(credits).length === 0) return undefined;
  if (!hasTier(ctx.key.scopes, 'financials')) {
    throw new AppError(
      'FINANCIAL_SCOPE_REQUIRED',
      'Writing member credits needs the financials tier (carried by admin keys)',
      { required_scope: 'financials', fields: Object.keys(credits) },
    );
  }
  return preconditionOf();
}

/** A plain member's personal key sees the team but may change only its own member record. */
function assertMayWrite(ctx: Ctx, personId: number | null): void {
  if (!ctx.actor.restricted || (personId !== null && personId === ctx.actor.personId)) return;
  const what = personId === null ? 'create members' : 'change other members';
  throw new AppError('FORBIDDEN', `A personal key of a plain member cannot ${what}`, { reason: 'MEMBER_RIGHTS' });
}

/**
 * The body's custom_fields (or its alias fields), checked against the company's member definitions, as the
 * column change; the two keys are taken out of `rest` so they never reach the row as they are.
 */
async function customColumns(
  ctx: Ctx,
  body: MemberCreateBody | MemberUpdateBody,
): Promise<Pick<RowChanges<'members'>, 'custom_fields'>> {
  const custom = customFieldsInput(body);
  if (custom.both)
    throw new AppError('VALIDATION_ERROR', 'Send custom_fields or its alias fields, not both', {
      reason: 'DUPLICATE_ALIAS',
      field: 'custom_fields',
    });
  await assertCustomFieldValues(ctx, 'member', body);
  return custom.present ? { custom_fields: custom.value } : {};
}

async function checkHrLead(ctx: Ctx, hrLeadId: number | null | undefined): Promise<void> {
  if (hrLeadId === null || hrLeadId === undefined) return;
  if (!(await repo.isMemberPerson(ctx, hrLeadId))) throw invalidReference('person', 'hr_lead_id', hrLeadId);
}

export async function listMembers(ctx: Ctx, params: MemberListParams) {
  const page = await repo.listMembers(ctx, params);
  return { data: page.data.map((member) => forKey(ctx, member)), meta: page.meta };
}

export async function getMember(ctx: Ctx, id: number): Promise<MemberRecord> {
  return forKey(ctx, orNotFound(await repo.findMember(ctx, id), 'Member'));
}

/** A placeholder member: a person without a login, always status limited and role member. */
export async function createMember(ctx: Ctx, body: MemberCreateBody): Promise<MemberRecord> {
  assertMayWrite(ctx, null);
  return inTransaction(ctx, async (tx) => {
    await checkHrLead(tx, body.hr_lead_id);
    const custom = await customColumns(tx, body);
    const { name, surname = null, email = null, custom_fields: _c, fields: _f, ...memberFields } = body;
    const personId = await repo.people.insert(tx, { name, surname, email, phone: null });
    const id = await repo.members.insert(tx, {
      ...memberFields,
      ...custom,
      person_id: personId,
      initials: initialsOf(name, surname),
      role: 'member',
      status: 'limited',
    });
    return getMember(tx, id);
  });
}

async function applyUpdate(
  ctx: Ctx,
  current: { id: number; person_id: number; role: string; status: string; account_id: number | null },
  body: MemberUpdateBody,
  credits: Credits,
): Promise<void> {
  const {
    name,
    surname,
    role: _role,
    status: _status,
    flextime_credit: _f,
    vacation_credit: _v,
    custom_fields: _c,
    fields: _a,
    ...memberFields
  } = body;
  const columns: RowChanges<'members'> = {
    ...memberFields,
    ...credits,
    ...(await customColumns(ctx, body)),
    ...(await managementColumns(ctx, current, body)),
  };
  const person: RowChanges<'people'> = {};
  if (name !== undefined) person.name = name;
  if (surname !== undefined) person.surname = surname;
  if (Object.keys(person).length) {
    const previous = await repo.personName(ctx, current.person_id);
    await repo.people.update(ctx, current.person_id, person);
    columns.initials = initialsOf(
      person.name ?? previous.name,
      person.surname === undefined ? previous.surname : person.surname,
    );
  }
  // Always written, so the ETag changes even when only the person's name changed.
  await repo.members.update(ctx, current.id, columns);
}

/**
 * PATCH: role and status need an owner's or admin's web session (members.management.ts); credits need the financials
 * tier and a fresh If-Match, compared under a row lock so two writers cannot both pass.
 */
export async function updateMember(
  ctx: Ctx,
  id: number,
  body: MemberUpdateBody,
  preconditionOf: () => Precondition,
): Promise<MemberRecord> {
  const credits = creditColumns(body);
  const precondition = checkUpdateRules(ctx, body, credits, preconditionOf);
  return inTransaction(ctx, async (tx) => {
    // Not mutate(): who may write and If-Match are checked on the locked row even for an empty body.
    const current = orNotFound(await repo.lockMember(tx, id), 'Member');
    assertMayWrite(tx, current.person_id);
    if (precondition) assertFresh(precondition, current.updated_at);
    if (Object.keys(body).length === 0) return getMember(tx, id);
    await checkHrLead(tx, body.hr_lead_id);
    await applyUpdate(tx, current, body, credits);
    return getMember(tx, id);
  });
}
