import type { Static } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, invalidReference } from '../../platform/errors.ts';
import { recordEvents } from '../../platform/events.ts';
import { toFlag } from '../../platform/fields.ts';
import type { ListFilters } from '../../platform/lists.ts';
import type { Warning as WarningSchema, Written } from '../../platform/http.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import type { NewRow, RowChanges } from '../../platform/tenant-table.ts';
import { entryLocks, lockedPeriods, type BillingLock } from '../billing/index.ts';
import type {
  TimeEntryCreateBody,
  TimeEntryListParams,
  TimeEntryRecord,
  TimeEntryUpdateBody,
} from './time-entries.schemas.ts';
import {
  atIndex,
  parseTimes,
  requireDateTime,
  timingForUpdate,
  timingsOf,
  type DateTimeInput,
  type Timing,
} from './time-entries.rules.ts';
import * as repo from './time-entries.repository.ts';

type Warning = Static<typeof WarningSchema>;
type NewEntry = NewRow<'time_entries'>;

/** A plain member's personal key writes only its own person's time. */
function assertOwnPerson(ctx: Ctx, personId: number): void {
  if (ctx.actor.restricted && personId !== ctx.actor.personId) {
    throw new AppError('FORBIDDEN', 'A personal key of a plain member may only write its own time entries', {
      reason: 'OWN_ENTRIES_ONLY',
      field: 'person_id',
      value: personId,
    });
  }
}

const timerRunning = (personId: number, runningId: number | undefined) =>
  new AppError(
    'TIMER_ALREADY_RUNNING',
    `Person ${personId} already has a running time entry; close it (set its end) first`,
    runningId === undefined ? { person_id: personId } : { person_id: personId, running_entry_id: runningId },
  );

/** The database's one-running-entry index is the last word when two writes race past the checks. */
function runningRace(error: unknown): number | null {
  const pg = error as { code?: string; constraint?: string; detail?: string };
  if (pg?.code !== '23505' || pg.constraint !== 'time_entries_one_running') return null;
  const person = /=\([^,]+,\s*(\d+)\)/.exec(pg.detail ?? '');
  return person ? Number(person[1]) : 0;
}

function overlapWarning(ids: number[] | undefined, index?: number): Warning[] {
  if (!ids?.length) return [];
  const warning: Warning = {
    code: 'TIME_ENTRY_OVERLAP',
    message: `The entry overlaps other entries of the same person: ${ids.join(', ')}`,
    details: { overlapping_ids: ids },
  };
  return [index === undefined ? warning : { ...warning, index }];
}

/** A start_from/start_to filter as an instant; one that does not parse is 400 INVALID_FILTER_VALUE. */
function instantFilter(field: 'start_from' | 'start_to', value: string | undefined): DateTimeInput | undefined {
  if (value === undefined) return undefined;
  try {
    return requireDateTime(field, value);
  } catch {
    throw new AppError('INVALID_FILTER_VALUE', `Filter ${field} is not a valid date-time`, { field, value });
  }
}

const parseFilters = (filters: ListFilters<TimeEntryListParams>): repo.EntryFilters => ({
  ...filters,
  start_from: instantFilter('start_from', filters.start_from),
  start_to: instantFilter('start_to', filters.start_to),
});

export const listEntries = (ctx: Ctx, params: TimeEntryListParams) => repo.listEntries(ctx, params, parseFilters);

export async function getEntry(ctx: Ctx, id: number): Promise<TimeEntryRecord> {
  return orNotFound(await repo.findEntry(ctx, id), 'Time entry');
}

/** 409 TIME_ENTRY_LOCKED: the entry, or the period it lies or would land in, is billed on a finalized invoice. */
function lockedError(lock: BillingLock, what: string): AppError {
  const number = lock.invoice_number ? ` ${lock.invoice_number}` : '';
  return new AppError('TIME_ENTRY_LOCKED', `${what} is billed on finalized invoice${number} (id ${lock.invoice_id})`, {
    ...lock,
  });
}

/** The entry as it stands: billed on a finalized invoice, or inside a period one has closed (billing's rule). */
async function assertEntryOpen(ctx: Ctx, id: number): Promise<void> {
  const lock = (await entryLocks(ctx, [id])).get(id);
  if (lock) throw lockedError(lock, `Time entry ${id} (or its period)`);
}

/** Fields whose change would alter what an invoice billed (a description edit stays open). */
const MONEY_FIELDS = ['start', 'end', 'duration', 'billable', 'task_id', 'person_id'] as const;

/** A locked entry keeps its money fields (it may not leave its closed period); no entry may move into one. */
async function assertUnlocked(
  ctx: Ctx,
  id: number,
  body: TimeEntryUpdateBody,
  next: { task_id: number; start: string },
): Promise<void> {
  if (!MONEY_FIELDS.some((field) => body[field] !== undefined)) return;
  await assertEntryOpen(ctx, id);
  const [period] = await lockedPeriods(ctx, [next]);
  if (period) throw lockedError(period, `The period of ${next.start.slice(0, 10)}`);
}

/** Every rule for every entry, set-based (one query whatever the count); the first refused entry wins. */
async function prepare(
  ctx: Ctx,
  bodies: readonly TimeEntryCreateBody[],
  bulk: boolean,
): Promise<{ rows: NewEntry[]; locks: Map<number, BillingLock> }> {
  const parsed = parseTimes(bodies);
  const unique = (values: number[]) => [...new Set(values)];
  const values: DateTimeInput[] = [];
  const probes: repo.LockProbe[] = [];
  parsed.forEach((p, index) => {
    if ('error' in p) return;
    probes.push({ index, task_id: bodies[index]!.task_id, start: values.length });
    values.push(...(p.end ? [p.start, p.end] : [p.start]));
  });
  const inputs = await repo.checkInputs(
    ctx,
    values,
    {
      tasks: unique(bodies.map((b) => b.task_id)),
      people: unique(bodies.map((b) => b.person_id)),
      // A timer opens when there is no end and no duration to derive one from.
      timerPeople: unique(bodies.filter((b) => b.end == null && b.duration === undefined).map((b) => b.person_id)),
    },
    probes,
  );
  const outcomes = timingsOf(bodies, parsed, inputs.instants);
  const { tasks, people, running } = inputs;
  const opensTimer = (i: number) => {
    const o = outcomes[i]!;
    return 'timing' in o && o.timing.end === null;
  };
  const startedHere = new Set<number>();
  const rows = bodies.map((body, i) => {
    try {
      const outcome = outcomes[i]!;
      if ('error' in outcome) throw outcome.error;
      assertOwnPerson(ctx, body.person_id);
      if (!people.has(body.person_id)) throw invalidReference('person', 'person_id', body.person_id);
      if (!tasks.has(body.task_id)) throw invalidReference('task', 'task_id', body.task_id);
      if (opensTimer(i)) {
        if (running.has(body.person_id) || startedHere.has(body.person_id))
          throw timerRunning(body.person_id, running.get(body.person_id));
        startedHere.add(body.person_id);
      }
      return {
        task_id: body.task_id,
        person_id: body.person_id,
        ...outcome.timing,
        billable: toFlag(body.billable) ?? 1,
        description: body.description ?? '',
      };
    } catch (error) {
      throw bulk ? atIndex(error, i) : error;
    }
  });
  return { rows, locks: inputs.locks };
}

/** New entries may not land in a period a finalized invoice has billed; the first one that does is refused. */
function assertOpenPeriods(prepared: { rows: NewEntry[]; locks: Map<number, BillingLock> }, bulk: boolean): NewEntry[] {
  const { rows, locks } = prepared;
  const index = rows.findIndex((_, i) => locks.has(i));
  if (index >= 0) {
    const error = lockedError(locks.get(index)!, `The period of ${String(rows[index]!.start).slice(0, 10)}`);
    throw bulk ? atIndex(error, index) : error;
  }
  return rows;
}

async function insertAll(ctx: Ctx, rows: NewEntry[], bulk: boolean) {
  try {
    return await repo.insertEntriesWithOverlaps(ctx, rows);
  } catch (error) {
    const person = runningRace(error);
    if (person === null) throw error;
    const refused = timerRunning(person, undefined);
    throw bulk
      ? atIndex(
          refused,
          Math.max(
            0,
            rows.findIndex((r) => r.person_id === person && r.end === null),
          ),
        )
      : refused;
  }
}

async function createMany(
  ctx: Ctx,
  bodies: readonly TimeEntryCreateBody[],
  bulk: boolean,
): Promise<Written<TimeEntryRecord[]>> {
  return inTransaction(ctx, async (tx) => {
    const found = await insertAll(tx, assertOpenPeriods(await prepare(tx, bodies, bulk), bulk), bulk);
    const records = found.map((f) => f.record);
    await recordEvents(tx, 'time_entry', 'created', records);
    const warnings = found.flatMap((f, i) => overlapWarning(f.overlapping, bulk ? i : undefined));
    return { data: records, warnings };
  });
}

export async function createEntry(ctx: Ctx, body: TimeEntryCreateBody): Promise<Written<TimeEntryRecord>> {
  const { data, warnings } = await createMany(ctx, [body], false);
  return { data: data[0]!, warnings };
}

/** All or nothing: one transaction, and a refusal names the entry by `details.index`. */
export const createEntries = (ctx: Ctx, bodies: readonly TimeEntryCreateBody[]) => createMany(ctx, bodies, true);

/** An update's new timing, its changed person and task checked: one query for the instants and references. */
async function checkUpdate(
  ctx: Ctx,
  current: Timing & { task_id: number; person_id: number },
  body: TimeEntryUpdateBody,
): Promise<Timing> {
  const inputs = [body.start, body.end].map((text, i) =>
    text == null ? null : requireDateTime(i === 0 ? 'start' : 'end', text),
  );
  const person = body.person_id !== undefined && body.person_id !== current.person_id ? body.person_id : undefined;
  const task = body.task_id !== undefined && body.task_id !== current.task_id ? body.task_id : undefined;
  const checked = await repo.checkInputs(
    ctx,
    inputs.filter((v): v is DateTimeInput => v !== null),
    { tasks: task === undefined ? [] : [task], people: person === undefined ? [] : [person], timerPeople: [] },
  );
  const instants = [...checked.instants];
  const start = inputs[0] ? instants.shift() : undefined;
  const end = body.end === null ? null : inputs[1] ? instants.shift() : undefined;
  const timing = timingForUpdate(current, { start, end, duration: body.duration });
  if (person !== undefined) {
    assertOwnPerson(ctx, person);
    if (!checked.people.has(person)) throw invalidReference('person', 'person_id', person);
  }
  if (task !== undefined && !checked.tasks.has(task)) throw invalidReference('task', 'task_id', task);
  return timing;
}

export async function updateEntry(ctx: Ctx, id: number, body: TimeEntryUpdateBody): Promise<Written<TimeEntryRecord>> {
  return inTransaction(ctx, async (tx) => {
    // Not mutate(): the owner check applies to an empty PATCH too, and the answer carries warnings.
    const current = orNotFound(await repo.lockEntry(tx, id), 'Time entry');
    assertOwnPerson(tx, current.person_id);
    if (Object.keys(body).length === 0) return { data: await getEntry(tx, id), warnings: [] };
    const timing = await checkUpdate(tx, current, body);
    await assertUnlocked(tx, id, body, { task_id: body.task_id ?? current.task_id, start: timing.start });
    const personId = body.person_id ?? current.person_id;
    if (timing.end === null && (current.end !== null || personId !== current.person_id)) {
      const running = await repo.runningEntries(tx, [personId], id);
      if (running.has(personId)) throw timerRunning(personId, running.get(personId));
    }
    const values: RowChanges<'time_entries'> = { ...timing };
    if (body.task_id !== undefined) values.task_id = body.task_id;
    if (body.person_id !== undefined) values.person_id = body.person_id;
    if (body.billable !== undefined) values.billable = toFlag(body.billable)!;
    if (body.description !== undefined) values.description = body.description;
    try {
      await repo.timeEntries.update(tx, id, values);
    } catch (error) {
      if (runningRace(error) === null) throw error;
      throw timerRunning(personId, undefined);
    }
    const [found] = await repo.findEntriesWithOverlaps(tx, [id]);
    const { record, overlapping } = orNotFound(found, 'Time entry');
    return { data: record, warnings: overlapWarning(overlapping) };
  });
}

export const deleteEntry = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, { what: 'Time entry', lock: repo.lockEntry }, id, async (tx, current) => {
    assertOwnPerson(tx, current.person_id);
    await assertEntryOpen(tx, id);
    await repo.timeEntries.softDelete(tx, id);
  });
