import type { Static } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation, invalidReference, notFound } from '../../platform/errors.ts';
import type { Warning, Written } from '../../platform/http.ts';
import { AMOUNT, Dec, decimalInput } from '../../platform/money.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import type {
  AgreementCreateBody,
  AgreementListParams,
  AgreementRecord,
  AgreementUpdateBody,
  MemberAgreementCreateBody,
} from './agreements.schemas.ts';
import { isMemberPerson, personOfMember } from '../members/index.ts';
import * as repo from './agreements.repository.ts';

type WarningRecord = Static<typeof Warning>;
export type Outcome = Written<AgreementRecord>;
/** Which agreements a route reaches: the company's, or one member's (person from the path). */
export interface Scope {
  personId?: number;
}

/** numeric(14,4) and numeric(5,2) of migration 0071. */
const COST_RATE = { ...AMOUNT.unitPrice, min: 0 } as const;
const WEEKLY_HOURS = { places: 2, min: 0, max: 168 } as const;
const DEFAULT_WORK_DAYS = [1, 2, 3, 4, 5];

type Columns = Omit<AgreementUpdateBody, 'cost_rate' | 'weekly_hours'> & { cost_rate?: string; weekly_hours?: string };

/** The body's amounts as exact decimal text (400 naming the field when out of range), work days in order. */
function columnsOf(body: AgreementUpdateBody): Columns {
  const { cost_rate, weekly_hours, work_days, ...plain } = body;
  const columns: Columns = { ...plain };
  if (cost_rate !== undefined) columns.cost_rate = decimalInput('cost_rate', cost_rate, COST_RATE);
  if (weekly_hours !== undefined) columns.weekly_hours = decimalInput('weekly_hours', weekly_hours, WEEKLY_HOURS);
  if (work_days !== undefined) columns.work_days = [...work_days].sort((a, b) => a - b);
  return columns;
}

/** Rules on the agreement as it will be stored (create: the body with defaults; PATCH: merged with the row). */
function assertConsistent(state: {
  date_from: string;
  date_until: string | null;
  weekly_hours: string;
  work_days: number[];
}): void {
  // YYYY-MM-DD compares correctly as text.
  if (state.date_until !== null && state.date_until < state.date_from)
    throw domainValidation('INVALID_DATE_RANGE', 'date_until must not be before date_from', {
      field: 'date_until',
      date_from: state.date_from,
      date_until: state.date_until,
    });
  if (state.work_days.length === 0 && new Dec(state.weekly_hours).greaterThan(0))
    throw domainValidation('WORK_DAYS_REQUIRED', 'weekly_hours above 0 need at least one work day', {
      field: 'work_days',
    });
}

async function overlapWarnings(
  ctx: Ctx,
  personId: number,
  dateFrom: string,
  dateUntil: string | null,
  id: number,
): Promise<WarningRecord[]> {
  const ids = await repo.overlappingIds(ctx, personId, dateFrom, dateUntil, id);
  if (ids.length === 0) return [];
  return [
    {
      code: 'AGREEMENT_OVERLAP',
      message: `The agreement's period overlaps other agreements of person ${personId}: ${ids.join(', ')}`,
      details: { overlapping_ids: ids, person_id: personId },
    },
  ];
}

export const listAgreements = (ctx: Ctx, params: AgreementListParams, scope: Scope = {}) => {
  if (params.date_from && params.date_until && params.date_until < params.date_from)
    throw domainValidation('INVALID_DATE_RANGE', 'date_until must not be before date_from', { field: 'date_until' });
  return repo.listAgreements(ctx, params, scope.personId);
};

/** An agreement of the scope: another member's (on the member routes) is as absent as another company's. */
export async function getAgreement(ctx: Ctx, id: number, scope: Scope = {}): Promise<AgreementRecord> {
  const record = await repo.findAgreement(ctx, id);
  if (record && scope.personId !== undefined && record.person_id !== scope.personId) throw notFound('Agreement');
  return orNotFound(record, 'Agreement');
}

/** The member's person (404 for another company's or an absent member): what the member routes act on. */
export async function memberScope(ctx: Ctx, memberId: number): Promise<Scope> {
  return { personId: orNotFound(await personOfMember(ctx, memberId), 'Member') };
}

/** 404 before the body is validated, so another company's (or member's) agreement is 404 whatever the body. */
export async function assertAgreementExists(ctx: Ctx, id: number, scope: Scope = {}): Promise<void> {
  await getAgreement(ctx, id, scope);
}

function personFor(body: AgreementCreateBody | MemberAgreementCreateBody, scope: Scope): number {
  if (scope.personId === undefined) return body.person_id!;
  if (body.person_id !== undefined && body.person_id !== scope.personId)
    throw domainValidation('PERSON_MISMATCH', "person_id must be the path member's person id (or left out)", {
      field: 'person_id',
      value: body.person_id,
      expected: scope.personId,
    });
  return scope.personId;
}

/** POST: no If-Match (nothing to match yet); an overlap with the person's other agreements is a warning, not a refusal. */
export async function createAgreement(
  ctx: Ctx,
  body: AgreementCreateBody | MemberAgreementCreateBody,
  scope: Scope = {},
): Promise<Outcome> {
  const personId = personFor(body, scope);
  const { person_id: _person, ...writable } = body;
  const columns = {
    cost_type: 'hour' as const,
    cost_rate: '0',
    weekly_hours: '40',
    work_days: DEFAULT_WORK_DAYS,
    date_until: null,
    ...columnsOf(writable),
    date_from: body.date_from,
  };
  assertConsistent(columns);
  return inTransaction(ctx, async (tx) => {
    if (scope.personId === undefined && !(await isMemberPerson(tx, personId)))
      throw invalidReference('person', 'person_id', personId);
    const id = await repo.agreements.insert(tx, { ...columns, person_id: personId });
    const warnings = await overlapWarnings(tx, personId, columns.date_from, columns.date_until, id);
    return { data: await getAgreement(tx, id), warnings };
  });
}

/** Locks the scope's agreement or answers 404, then checks If-Match (asked for only now: 404 comes before 428). */
async function lockFresh(ctx: Ctx, id: number, scope: Scope, preconditionOf: () => Precondition) {
  const current = await repo.lockAgreement(ctx, id);
  if (!current || (scope.personId !== undefined && current.person_id !== scope.personId)) throw notFound('Agreement');
  assertFresh(preconditionOf(), current.updated_at);
  return current;
}

/** PATCH: admin and If-Match always (a financial record); dates and hours are checked as they will be stored. */
export async function updateAgreement(
  ctx: Ctx,
  id: number,
  body: AgreementUpdateBody,
  preconditionOf: () => Precondition,
  scope: Scope = {},
): Promise<Outcome> {
  const columns = columnsOf(body);
  return inTransaction(ctx, async (tx) => {
    const current = await lockFresh(tx, id, scope, preconditionOf);
    if (Object.keys(body).length === 0) return { data: await getAgreement(tx, id), warnings: [] };
    const next = {
      date_from: body.date_from ?? current.date_from,
      date_until: body.date_until === undefined ? current.date_until : body.date_until,
      weekly_hours: columns.weekly_hours ?? current.weekly_hours,
      work_days: columns.work_days ?? current.work_days,
    };
    assertConsistent(next);
    await repo.agreements.update(tx, id, columns);
    const datesSent = body.date_from !== undefined || body.date_until !== undefined;
    const warnings = datesSent ? await overlapWarnings(tx, current.person_id, next.date_from, next.date_until, id) : [];
    return { data: await getAgreement(tx, id), warnings };
  });
}

/** DELETE: admin and If-Match; the record moves to the archive of deleted agreements. */
export async function deleteAgreement(
  ctx: Ctx,
  id: number,
  preconditionOf: () => Precondition,
  scope: Scope = {},
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await lockFresh(tx, id, scope, preconditionOf);
    await repo.archiveAgreement(tx, id);
  });
}
