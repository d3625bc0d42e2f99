import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation, invalidReference } from '../../platform/errors.ts';
import { localToday } from '../../platform/dates.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { listBalances, type Window } from './flextime.balance.ts';
import {
  MAX_WINDOW_DAYS,
  type FlextimeBalanceParams,
  type FlextimeListParams,
  type FlextimeRowCreateBody,
  type FlextimeRowRecord,
  type FlextimeRowUpdateBody,
} from './flextime.schemas.ts';
import { isMemberPerson } from '../members/index.ts';
import * as repo from './flextime.repository.ts';

const DAY_MS = 24 * 3600 * 1000;

async function checkPerson(ctx: Ctx, personId: number | undefined): Promise<void> {
  if (personId !== undefined && !(await isMemberPerson(ctx, personId)))
    throw invalidReference('person', 'person_id', personId);
}

// The schema bounds the range; zero is refused here so the message can say why.
function checkDuration(duration: number | undefined): void {
  if (duration === 0)
    throw domainValidation(
      'ZERO_DURATION',
      'duration must not be 0: a row adds (positive) or deducts (negative) time',
      {
        field: 'duration',
      },
    );
}

function rangeError(field: string, message: string) {
  return domainValidation('INVALID_DATE_RANGE', message, { field });
}

export const listRows = (ctx: Ctx, params: FlextimeListParams) => {
  if (params.date_from && params.date_to && params.date_to < params.date_from)
    throw rangeError('date_to', 'date_to must not be before date_from');
  return repo.listRows(ctx, params);
};

export async function getRow(ctx: Ctx, id: number): Promise<FlextimeRowRecord> {
  return orNotFound(await repo.findRow(ctx, id), 'Flextime row');
}

export async function createRow(ctx: Ctx, body: FlextimeRowCreateBody): Promise<FlextimeRowRecord> {
  checkDuration(body.duration);
  return inTransaction(ctx, async (tx) => {
    await checkPerson(tx, body.person_id);
    const id = await repo.flextimeRows.insert(tx, {
      person_id: body.person_id,
      date: body.date,
      duration: body.duration,
      description: body.description ?? '',
    });
    return getRow(tx, id);
  });
}

const target = { what: 'Flextime row', lock: repo.flextimeRows.lock, read: repo.findRow };

/** PATCH: duration needs admin (checked before anything is read); If-Match is honoured when sent. */
export function updateRow(
  ctx: Ctx,
  id: number,
  body: FlextimeRowUpdateBody,
  precondition: Precondition | undefined,
): Promise<FlextimeRowRecord> {
  checkDuration(body.duration);
  return mutate(ctx, target, id, precondition ? undefined : body, async (tx, current) => {
    if (precondition) assertFresh(precondition, current.updated_at as string);
    if (Object.keys(body).length === 0) return;
    await checkPerson(tx, body.person_id);
    await repo.flextimeRows.update(tx, id, body);
  });
}

export const deleteRow = (ctx: Ctx, id: number, precondition: Precondition | undefined) =>
  mutateQuietly(ctx, target, id, async (tx, current) => {
    if (precondition) assertFresh(precondition, current.updated_at as string);
    await repo.flextimeRows.softDelete(tx, id);
  });

/** The window: date_to defaults to today in the company's time zone, date_from to 1 January of date_to's year. */
export function balanceWindow(ctx: Ctx, query: { date_from?: string; date_to?: string }): Window {
  const to = query.date_to ?? localToday(ctx.company.timezone);
  const from = query.date_from ?? `${to.slice(0, 4)}-01-01`;
  if (to < from) throw rangeError('date_to', `date_to (${to}) must not be before date_from (${from})`);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_WINDOW_DAYS)
    throw domainValidation('WINDOW_TOO_LONG', `The balance window may span at most ${MAX_WINDOW_DAYS} days`, {
      field: 'date_from',
      max_days: MAX_WINDOW_DAYS,
    });
  return { from, to };
}

export const listBalance = (ctx: Ctx, params: FlextimeBalanceParams) =>
  listBalances(ctx, params, balanceWindow(ctx, params));
