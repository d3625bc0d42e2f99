import type { Static } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference, notFound } from '../../platform/errors.ts';
import type { Warning, Written } from '../../platform/http.ts';
import { AMOUNT, Dec, decimalInput } from '../../platform/money.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { liveIds, lockLive } from '../../platform/references.ts';
import {
  THRESHOLD_FIELDS,
  type ClientMonitorCreateBody,
  type MonitorCreateBody,
  type MonitorListParams,
  type MonitorRecord,
  type MonitorUpdateBody,
} from './monitors.schemas.ts';
import * as repo from './monitors.repository.ts';
import { lockClientRows } from '../clients/index.ts';
import { isMemberPerson } from '../members/index.ts';

type WarningRecord = Static<typeof Warning>;
export type Outcome = Written<MonitorRecord>;
/** If-Match as the route reads it: required (428 when absent) or only honoured when sent. */
export type IfMatch = (required: boolean) => Precondition | undefined;

/** Fields that move a monitor's band or whether it is watched: a write touching one re-checks overlaps. */
const BAND_FIELDS = ['client_id', 'type', 'active', 'value', 'range_value'] as const;

const amount = (field: string, value: number) => decimalInput(field, value, AMOUNT.sum);

type Columns = Omit<MonitorUpdateBody, 'value' | 'range_value'> & { value?: string; range_value?: string | null };

/** The body's thresholds as exact decimal text (numeric(14,2)); 400 naming the field when out of range. */
function columnsOf(body: MonitorUpdateBody): Columns {
  const { value, range_value, ...plain } = body;
  const columns: Columns = { ...plain };
  if (value !== undefined) columns.value = amount('value', value);
  if (range_value !== undefined) columns.range_value = range_value === null ? null : amount('range_value', range_value);
  return columns;
}

function assertBand(value: string, rangeValue: string | null): void {
  if (rangeValue !== null && new Dec(rangeValue).lessThan(value))
    throw domainValidation('INVALID_RANGE', 'range_value must not be below value', {
      field: 'range_value',
      value: Number(value),
      range_value: Number(rangeValue),
    });
}

async function assertRolePerson(ctx: Ctx, personId: number | null | undefined): Promise<void> {
  if (personId == null) return;
  if (!(await isMemberPerson(ctx, personId))) throw invalidReference('person', 'role_person_id', personId);
}

/** 409 when a live monitor already watches the same client, type, person and frequency. */
async function assertUnique(ctx: Ctx, identity: repo.Identity, exceptId?: number): Promise<void> {
  const existing = await repo.sameIdentity(ctx, identity, exceptId);
  if (existing !== undefined) throw monitorExists(identity, existing);
}

function monitorExists(identity: repo.Identity, existingId?: number): AppError {
  return new AppError(
    'MONITOR_EXISTS',
    `Client ${identity.client_id} already has a ${identity.frequency} ${identity.type} monitor for this person`,
    { ...identity, ...(existingId === undefined ? {} : { existing_id: existingId }) },
  );
}

/** The unique index is the last word when two writes race past the check. */
async function guardIdentity<T>(identity: repo.Identity, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const pg = error as { code?: string; constraint?: string };
    if (pg?.code === '23505' && pg.constraint === 'monitors_identity') throw monitorExists(identity);
    throw error;
  }
}

async function overlapWarnings(ctx: Ctx, band: repo.Band, id: number): Promise<WarningRecord[]> {
  const ids = await repo.overlappingIds(ctx, band, id);
  if (ids.length === 0) return [];
  const upper = band.range_value === null ? 'no upper end' : band.range_value;
  return [
    {
      code: 'MONITOR_OVERLAP',
      message: `The band [${band.value}, ${upper}] overlaps active ${band.type} monitors of client ${band.client_id}: ${ids.join(', ')}`,
      details: { overlapping_ids: ids, client_id: band.client_id, type: band.type },
    },
  ];
}

export const listMonitors = (ctx: Ctx, params: MonitorListParams, clientId?: number) =>
  repo.listMonitors(ctx, params, clientId);

export async function getMonitor(ctx: Ctx, id: number): Promise<MonitorRecord> {
  return orNotFound(await repo.findMonitor(ctx, id), 'Monitor');
}

/** The nested routes' client: 404 when absent, deleted or another company's. */
export async function assertClient(ctx: Ctx, clientId: number): Promise<void> {
  if (!(await liveIds(ctx, 'clients', [clientId])).has(clientId)) throw notFound('Client');
}

/** POST: the client is locked first, so the uniqueness check and has_monitor hold under concurrent writes. */
export async function createMonitor(
  ctx: Ctx,
  body: MonitorCreateBody | ClientMonitorCreateBody,
  pathClientId?: number,
): Promise<Outcome> {
  const clientId = pathClientId ?? (body as MonitorCreateBody).client_id;
  const columns = { range_value: null, active: true, ...columnsOf(body), value: amount('value', body.value) };
  assertBand(columns.value, columns.range_value);
  return inTransaction(ctx, async (tx) => {
    if (!(await lockLive(tx, 'clients', clientId)))
      throw pathClientId === undefined ? invalidReference('client', 'client_id', clientId) : notFound('Client');
    await assertRolePerson(tx, body.role_person_id);
    const row = {
      ...columns,
      type: body.type,
      frequency: body.frequency,
      client_id: clientId,
      role_person_id: body.role_person_id ?? null,
    };
    await assertUnique(tx, row);
    const id = await guardIdentity(row, () => repo.monitors.insert(tx, row));
    await repo.syncHasMonitor(tx, [clientId]);
    const warnings = row.active ? await overlapWarnings(tx, row, id) : [];
    return { data: await getMonitor(tx, id), warnings };
  });
}

/** The monitor as it will be after the PATCH; the old and the new client are locked (in id order) and checked. */
async function nextState(ctx: Ctx, current: repo.LockedMonitor, body: MonitorUpdateBody, columns: Columns) {
  const next = { ...current, ...columns } as repo.LockedMonitor;
  await lockClientRows(ctx, [current.client_id, next.client_id]);
  if (next.client_id !== current.client_id && !(await liveIds(ctx, 'clients', [next.client_id])).has(next.client_id))
    throw invalidReference('client', 'client_id', next.client_id);
  if (body.role_person_id !== undefined) await assertRolePerson(ctx, body.role_person_id);
  assertBand(next.value, next.range_value);
  return next;
}

/**
 * PATCH: client, type, person, frequency and active are write-tier; value and range_value need admin and a fresh
 * If-Match (otherwise If-Match is honoured when sent). has_monitor follows in the same transaction.
 */
export async function updateMonitor(ctx: Ctx, id: number, body: MonitorUpdateBody, ifMatch: IfMatch) {
  const columns = columnsOf(body);
  const thresholdSent = THRESHOLD_FIELDS.some((field) => body[field] !== undefined);
  return inTransaction(ctx, async (tx): Promise<Outcome> => {
    const current = orNotFound(await repo.lockMonitor(tx, id), 'Monitor');
    const precondition = ifMatch(thresholdSent);
    if (precondition) assertFresh(precondition, current.updated_at as string);
    if (Object.keys(body).length === 0) return { data: await getMonitor(tx, id), warnings: [] };
    const next = await nextState(tx, current, body, columns);
    await assertUnique(tx, next, id);
    await guardIdentity(next, () => repo.monitors.update(tx, id, columns));
    await repo.syncHasMonitor(tx, [current.client_id, next.client_id]);
    const bandSent = BAND_FIELDS.some((field) => body[field] !== undefined);
    const warnings = next.active && bandSent ? await overlapWarnings(tx, next, id) : [];
    return { data: await getMonitor(tx, id), warnings };
  });
}

/** DELETE: admin and If-Match; a soft delete, and the client's has_monitor follows. */
export async function deleteMonitor(ctx: Ctx, id: number, ifMatch: IfMatch): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.lockMonitor(tx, id), 'Monitor');
    assertFresh(ifMatch(true)!, current.updated_at as string);
    await lockClientRows(tx, [current.client_id]);
    await repo.monitors.softDelete(tx, id);
    await repo.syncHasMonitor(tx, [current.client_id]);
  });
}
