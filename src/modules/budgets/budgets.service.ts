import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { AMOUNT, decimalInput } from '../../platform/money.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { assertReference } from '../../platform/references.ts';
import { liveProjectClient } from '../projects/index.ts';
import {
  ADMIN_FIELDS,
  type BudgetCreateBody,
  type BudgetListParams,
  type BudgetRecord,
  type BudgetUpdateBody,
} from './budgets.schemas.ts';
import * as repo from './budgets.repository.ts';

/** If-Match as the route reads it: required (428 when absent) or only honoured when sent. */
export type IfMatch = (required: boolean) => Precondition | undefined;

/** numeric(14,2) ≥ 0 and numeric(5,4) in 0-1 of migration 0072. */
const NET_SUM = { ...AMOUNT.sum, min: 0 } as const;
const WARNING_RATE = { places: 4, min: 0, max: 1 } as const;
const DEFAULT_WARNING_RATE = '0.8';

type Columns = Omit<BudgetUpdateBody, 'budget_net_sum' | 'warning_rate'> & {
  budget_net_sum?: string;
  warning_rate?: string;
};

/** The body's amounts as exact decimal text; 400 naming the field when out of range or too precise. */
function columnsOf(body: BudgetUpdateBody): Columns {
  const { budget_net_sum, warning_rate, ...plain } = body;
  const columns: Columns = { ...plain };
  if (budget_net_sum !== undefined) columns.budget_net_sum = decimalInput('budget_net_sum', budget_net_sum, NET_SUM);
  if (warning_rate !== undefined) {
    // A percent sent as a rate (80 for 80 %) is the usual mistake: say so rather than only "out of range".
    if (warning_rate > 1)
      throw domainValidation('OUT_OF_RANGE', 'warning_rate is a fraction from 0 to 1 (80 % is 0.8)', {
        field: 'warning_rate',
        min: 0,
        max: 1,
      });
    columns.warning_rate = decimalInput('warning_rate', warning_rate, WARNING_RATE);
  }
  return columns;
}

function assertDates(dateFrom: string | null, dateUntil: string | null): void {
  // YYYY-MM-DD compares correctly as text.
  if (dateFrom !== null && dateUntil !== null && dateUntil < dateFrom)
    throw domainValidation('INVALID_DATE_RANGE', 'date_until must not be before date_from', {
      field: 'date_until',
      date_from: dateFrom,
      date_until: dateUntil,
    });
}

/**
 * The scope as it will be stored: a live client and project of this company; a project with a client fixes the
 * budget's client (left out: taken from the project; null: the project's time on any client's invoices).
 */
async function resolveScope(
  ctx: Ctx,
  body: { client_id?: number | null; project_id?: number | null },
  current: { client_id: number | null; project_id: number | null },
): Promise<number | null> {
  const clientSent = body.client_id;
  await assertReference(ctx, 'clients', 'client', 'client_id', clientSent);
  const projectId = body.project_id === undefined ? current.project_id : body.project_id;
  if (projectId === null) return clientSent === undefined ? current.client_id : clientSent;
  const project = await liveProjectClient(ctx, projectId);
  if (!project) throw invalidReference('project', 'project_id', projectId);
  const projectSent = body.project_id !== undefined;
  const clientId = clientSent !== undefined ? clientSent : projectSent ? project.client_id : current.client_id;
  if (clientId !== null && project.client_id !== null && project.client_id !== clientId)
    throw new AppError('INVALID_PROJECT', `project_id ${projectId} belongs to client ${project.client_id}`, {
      field: 'project_id',
      value: projectId,
      project_client_id: project.client_id,
      client_id: clientId,
    });
  return clientId;
}

export const listBudgets = (ctx: Ctx, params: BudgetListParams) => repo.listBudgets(ctx, params);

export async function getBudget(ctx: Ctx, id: number): Promise<BudgetRecord> {
  return orNotFound(await repo.findBudget(ctx, id), 'Budget');
}

export async function createBudget(ctx: Ctx, body: BudgetCreateBody): Promise<BudgetRecord> {
  const columns = columnsOf(body);
  const dateFrom = body.date_from ?? null;
  const dateUntil = body.date_until ?? null;
  assertDates(dateFrom, dateUntil);
  return inTransaction(ctx, async (tx) => {
    const projectId = body.project_id ?? null;
    const clientId = await resolveScope(tx, body, { client_id: null, project_id: null });
    const id = await repo.budgets.insert(tx, {
      status: 'active',
      warning_rate: DEFAULT_WARNING_RATE,
      ...columns,
      name: body.name,
      budget_net_sum: columns.budget_net_sum!,
      client_id: clientId,
      project_id: projectId,
      date_from: dateFrom,
      date_until: dateUntil,
    });
    return getBudget(tx, id);
  });
}

/**
 * PATCH: name, scope and dates are write-tier; budget_net_sum, warning_rate and status need admin and a fresh
 * If-Match. Otherwise If-Match is honoured when sent. Both are checked under the row lock, after the 404.
 */
export async function updateBudget(ctx: Ctx, id: number, body: BudgetUpdateBody, ifMatch: IfMatch) {
  const columns = columnsOf(body);
  const adminSent = ADMIN_FIELDS.some((field) => body[field] !== undefined);
  return inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.lockBudget(tx, id), 'Budget');
    const precondition = ifMatch(adminSent);
    if (precondition) assertFresh(precondition, current.updated_at);
    if (Object.keys(body).length === 0) return getBudget(tx, id);
    assertDates(
      body.date_from === undefined ? current.date_from : body.date_from,
      body.date_until === undefined ? current.date_until : body.date_until,
    );
    if (body.client_id !== undefined || body.project_id !== undefined)
      columns.client_id = await resolveScope(tx, body, current);
    await repo.budgets.update(tx, id, columns);
    return getBudget(tx, id);
  });
}

/** DELETE: admin; a soft delete. If-Match is honoured when sent. */
export async function deleteBudget(ctx: Ctx, id: number, ifMatch: IfMatch): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.lockBudget(tx, id), 'Budget');
    const precondition = ifMatch(false);
    if (precondition) assertFresh(precondition, current.updated_at);
    await repo.budgets.softDelete(tx, id);
  });
}
