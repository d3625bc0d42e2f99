import type { CalendarListParams } from './calendar.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReference } from '../../platform/references.ts';
import type { CalendarEntryCreateBody, CalendarEntryRecord, CalendarEntryUpdateBody } from './calendar.schemas.ts';
import { assertRole, assertWebSession } from '../../platform/web-only.ts';
import * as repo from './calendar.repository.ts';

/** Types whose approval belongs to the web application's approval flow. */
const UI_APPROVED_TYPES = new Set(['vacation', 'flextime']);

const readOnly = () => new AppError('READ_ONLY', 'Holiday entries are read-only through the API');
const approvalUiOnly = (message: string, details?: Record<string, unknown>) =>
  new AppError(
    'CALENDAR_APPROVAL_UI_ONLY',
    `${message}; vacation and flextime are approved only in the web application`,
    details,
  );

type EntryState = Pick<CalendarEntryRecord, 'type' | 'status'>;
const isUiApproved = (entry: EntryState) => entry.status === 'approved' && UI_APPROVED_TYPES.has(entry.type);

export const listEntries = (ctx: Ctx, params: CalendarListParams) => {
  const query = params as { date_from?: string; date_until?: string };
  if (query.date_from && query.date_until && query.date_until < query.date_from) {
    throw domainValidation('INVALID_DATE_RANGE', 'date_until must not be before date_from', { field: 'date_until' });
  }
  return repo.listEntries(ctx, params);
};

/** Positive ids are the company's entries; negative ids are global public holidays. */
export async function getEntry(ctx: Ctx, id: number): Promise<CalendarEntryRecord> {
  return orNotFound(
    id > 0 ? await repo.findEntry(ctx, id) : id < 0 ? await repo.findGlobalHoliday(ctx, id) : undefined,
    'Calendar entry',
  );
}

function checkDates(dateFrom: string, dateUntil: string): void {
  // YYYY-MM-DD compares correctly as text.
  if (dateUntil < dateFrom)
    throw domainValidation('INVALID_DATE_RANGE', 'date_until must not be before date_from', { field: 'date_until' });
}

/** A person of this company, and for a plain member's personal key only themselves (others are invisible to it). */
async function checkPerson(ctx: Ctx, personId: number | undefined): Promise<void> {
  if (personId === undefined) return;
  if (ctx.actor.restricted && personId !== ctx.actor.personId) throw invalidReference('person', 'person_id', personId);
  await assertReference(ctx, 'people', 'person', 'person_id', personId);
}

/**
 * Entries start in_review. Asking for approved on create is an approval: refused for vacation and
 * flextime (UI only) and, for the other types, a validation error since approval is a later PATCH.
 */
function checkCreateStatus(body: CalendarEntryCreateBody): void {
  if (body.status === undefined || body.status === 'in_review') return;
  if (UI_APPROVED_TYPES.has(body.type)) throw approvalUiOnly(`A ${body.type} entry cannot be created approved`);
  throw domainValidation(
    'CREATED_IN_REVIEW',
    'Calendar entries are created in_review; approve a sick_leave or time_off entry with PATCH afterwards',
    { field: 'status' },
  );
}

export async function createEntry(ctx: Ctx, body: CalendarEntryCreateBody): Promise<CalendarEntryRecord> {
  if (body.type === 'holiday') throw readOnly();
  const dateUntil = body.date_until ?? body.date_from;
  checkDates(body.date_from, dateUntil);
  checkCreateStatus(body);
  return inTransaction(ctx, async (tx) => {
    await checkPerson(tx, body.person_id);
    const id = await repo.calendar.insert(tx, {
      type: body.type,
      person_id: body.person_id,
      status: 'in_review',
      date_from: body.date_from,
      date_until: dateUntil,
      description: body.description ?? null,
    });
    return getEntry(tx, id);
  });
}

/** The locked company entry; 403 for any holiday, undefined (404) when there is none the caller may write. */
async function lockWritable(ctx: Ctx, id: number): Promise<CalendarEntryRecord | undefined> {
  const entry = id > 0 ? await repo.lockEntry(ctx, id) : undefined;
  if (!entry) {
    if (id < 0 && (await repo.findGlobalHoliday(ctx, id))) throw readOnly();
    return undefined;
  }
  if (entry.type === 'holiday') throw readOnly();
  return entry;
}

const target = { what: 'Calendar entry', lock: lockWritable, read: repo.findEntry };

/** What an approval covers: changing any of these on an approved entry approves it anew; description is not one. */
const APPROVAL_FIELDS = ['status', 'type', 'person_id', 'date_from', 'date_until'] as const;

const DECIDED = new Set(['approved', 'rejected']);

/**
 * Vacation and flextime decisions are the web application's (docs/decisions/0053): deciding one, or changing a
 * decided one, needs a session of an owner or admin (API keys: CALENDAR_APPROVAL_UI_ONLY, src/platform/web-only.ts).
 * Admins never decide their own entry; an owner may (a sole owner has nobody else to ask).
 */
function checkUiDecision(
  ctx: Ctx,
  before: EntryState,
  after: EntryState & { person_id: number | null },
  changed: readonly string[],
): void {
  const refusal = DECIDED.has(before.status)
    ? `The ${before.type} entry is ${before.status}; through the API only its description can change`
    : `A ${after.type} entry cannot be ${after.status} through the API`;
  assertWebSession(
    ctx,
    'CALENDAR_APPROVAL_UI_ONLY',
    `${refusal}; vacation and flextime are decided only in the web application`,
    {
      fields: changed,
    },
  );
  assertRole(ctx, ['owner', 'admin'], 'approve or reject vacation and flextime');
  if (DECIDED.has(after.status) && after.person_id === ctx.actor.personId && ctx.actor.role !== 'owner')
    throw new AppError('FORBIDDEN', 'An admin does not decide their own entry; an owner does', {
      reason: 'SELF_APPROVAL',
      person_id: after.person_id,
    });
}

/**
 * A write that leaves an entry decided decides what it then says: setting approved or rejected, or changing the
 * type, person or dates of a decided entry. Sick leave and time off may be decided here, but never with a key
 * acting for the person the entry is for.
 */
function checkApproval(ctx: Ctx, before: CalendarEntryRecord, body: CalendarEntryUpdateBody): void {
  const after = { ...before, ...body };
  const changed = APPROVAL_FIELDS.filter((field) => after[field] !== before[field]);
  if (changed.length === 0) return;
  const uiFlow = UI_APPROVED_TYPES.has(before.type) || UI_APPROVED_TYPES.has(after.type);
  if (uiFlow && (DECIDED.has(before.status) || DECIDED.has(after.status)))
    return checkUiDecision(ctx, before, after, changed);
  if (!DECIDED.has(after.status)) return;
  if (ctx.actor.personId !== null && after.person_id === ctx.actor.personId) {
    throw new AppError('FORBIDDEN', 'Nobody approves their own calendar entry; a key acting for someone else must', {
      reason: 'SELF_APPROVAL',
      person_id: after.person_id,
      fields: changed,
    });
  }
}

export const updateEntry = (ctx: Ctx, id: number, body: CalendarEntryUpdateBody): Promise<CalendarEntryRecord> =>
  mutate(ctx, target, id, body, async (tx, entry) => {
    if (body.type === 'holiday') throw readOnly();
    checkDates(body.date_from ?? entry.date_from, body.date_until ?? entry.date_until);
    checkApproval(tx, entry, body);
    await checkPerson(tx, body.person_id);
    await repo.calendar.update(tx, id, body);
  });

/** Deleting an approved vacation/flextime entry would unset its approval: refused like the PATCH. */
export const deleteEntry = (ctx: Ctx, id: number): Promise<void> =>
  mutateQuietly(ctx, target, id, async (tx, entry) => {
    if (isUiApproved(entry))
      throw approvalUiOnly(`The ${entry.type} entry is approved and cannot be deleted through the API`);
    await repo.calendar.softDelete(tx, id);
  });
