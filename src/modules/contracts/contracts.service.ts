import type { Static } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation, fail, invalidReference, notFound } from '../../platform/errors.ts';
import type { Warning } from '../../platform/http.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { assertReference } from '../../platform/references.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import * as rowRepo from './contract-rows.repository.ts';
import { createColumns, loadFacts, rejectionOf, rowWarnings, shapedRow } from './contract-rows.rules.ts';
import * as repo from './contracts.repository.ts';
import type {
  ContractCreateBody,
  ContractListParams,
  ContractRecord,
  ContractStatus,
  ContractUpdateBody,
  RowRejectionRecord,
} from './contracts.schemas.ts';
import { checkSettings, mergeSettings } from './contracts.settings.ts';
import { localToday as todayIn } from '../../platform/dates.ts';
import { assertDeletable, assertStatusMove, settleStatus } from './contracts.status.ts';

type WarningRecord = Static<typeof Warning>;

export const listContracts = (ctx: Ctx, params: ContractListParams) => repo.listContracts(ctx, params);

export async function getContract(ctx: Ctx, id: number): Promise<ContractRecord> {
  return orNotFound(await repo.findContract(ctx, id), 'Contract');
}

/** 404 before the body is validated, so another company's id answers 404 whatever the body holds. */
export async function assertContractExists(ctx: Ctx, id: number): Promise<void> {
  if (!(await repo.contractExists(ctx, id))) throw notFound('Contract');
}

function assertDates(dateFrom: string | null | undefined, dateUntil: string | null | undefined): void {
  if (dateFrom && dateUntil && dateUntil < dateFrom)
    throw domainValidation('INVALID_DATE_RANGE', 'date_until must not be before date_from', {
      field: 'date_until',
      date_from: dateFrom,
      date_until: dateUntil,
    });
}

/** A contract bills a client; only a template may go without one. */
async function checkClient(ctx: Ctx, type: string, clientId: number | null | undefined): Promise<void> {
  if (type === 'contract' && clientId == null)
    throw domainValidation('CLIENT_REQUIRED', 'client_id is required unless type is template', { field: 'client_id' });
  await assertReference(ctx, 'clients', 'client', 'client_id', clientId);
}

interface CreatePlan {
  header: Parameters<typeof repo.contracts.insert>[1];
  rows: Array<{ index: number; columns: rowRepo.RowColumns }>;
  rejections: RowRejectionRecord[];
  warnings: WarningRecord[];
}

/** Header checks throw (400); every row is checked, and each refused one is listed rather than thrown. */
async function planCreate(ctx: Ctx, body: ContractCreateBody): Promise<CreatePlan> {
  const type = body.type ?? 'contract';
  await checkClient(ctx, type, body.client_id);
  assertDates(body.date_from, body.date_until);
  checkSettings(body.settings);
  const parent = body.parent_id == null ? undefined : await repo.findTemplate(ctx, body.parent_id);
  if (body.parent_id != null && !parent) throw invalidReference('contract', 'parent_id', body.parent_id);
  const status = settleStatus(body.status ?? 'active', body.date_until ?? null, todayIn(ctx.company.timezone));
  const header = {
    name: body.name,
    type,
    status,
    client_id: body.client_id ?? null,
    parent_id: parent?.id ?? null,
    template_name: parent?.name ?? null,
    date_from: body.date_from ?? null,
    date_until: body.date_until ?? null,
    invoice_period: body.invoice_period ?? 'month',
    invoice_day: body.invoice_day ?? 1,
    settings: JSON.stringify(mergeSettings({}, body.settings)),
  };
  const plan: CreatePlan = { header, rows: [], rejections: [], warnings: [] };
  await planRows(ctx, body.rows ?? [], plan);
  return plan;
}

/** Every row is checked, its shape first; each refused one is listed (by row_index) rather than thrown. */
async function planRows(ctx: Ctx, sent: readonly unknown[], plan: CreatePlan): Promise<void> {
  const shaped = sent.map((row, index) => shapedRow(index, row));
  const facts = await loadFacts(
    ctx,
    shaped.flatMap((s) => ('row' in s ? [s.row] : [])),
  );
  shaped.forEach((s, index) => {
    if ('rejection' in s) return void plan.rejections.push(s.rejection);
    try {
      const columns = createColumns(s.row, facts);
      plan.rows.push({ index, columns });
      plan.warnings.push(...rowWarnings(columns, facts, false, index));
    } catch (error) {
      plan.rejections.push(rejectionOf(index, error));
    }
  });
}

/** The contract and all its rows in one transaction, or nothing: any refused row is 422 naming every one. */
export async function createContract(ctx: Ctx, body: ContractCreateBody) {
  return inTransaction(ctx, async (tx) => {
    const plan = await planCreate(tx, body);
    if (plan.rejections.length > 0)
      fail(
        'CONTRACT_ROWS_REJECTED',
        `${plan.rejections.length} of ${body.rows?.length ?? 0} rows were refused; nothing was written`,
        { rejections: plan.rejections },
      );
    const id = await repo.contracts.insert(tx, plan.header);
    await rowRepo.insertRows(
      tx,
      id,
      plan.rows.map((r) => r.columns),
    );
    return { data: await getContract(tx, id), warnings: plan.warnings };
  });
}

/** The same checks as create, and nothing written: only reads run. */
export async function previewContract(ctx: Ctx, body: ContractCreateBody) {
  const plan = await planCreate(ctx, body);
  return {
    data: {
      would_create: plan.rejections.length === 0,
      rejections: plan.rejections,
      rows: plan.rows.map(({ index, columns }) => previewRow(index, columns)),
    },
    warnings: plan.warnings,
  };
}

/** A row as it would be stored: numeric text as JSON numbers, every field present. */
function previewRow(index: number, c: rowRepo.RowColumns) {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    row_index: index,
    description: c.description ?? null,
    discount_rate: num(c.discount_rate) ?? 0,
    product_id: c.product_id ?? null,
    quantity: num(c.quantity) ?? 1,
    unit: c.unit ?? null,
    invoice_time_min: c.invoice_time_min ?? null,
    net_price: num(c.net_price),
    tax_id: c.tax_id ?? null,
    article_id: c.article_id ?? null,
    resource_id: c.resource_id ?? null,
    billing_project_id: c.billing_project_id ?? null,
    ext_variable: c.ext_variable ?? null,
  };
}

async function updateColumns(ctx: Ctx, current: repo.LockedContract, body: ContractUpdateBody) {
  const { settings, status, ...plain } = body;
  const clientId = body.client_id === undefined ? current.client_id : body.client_id;
  if (body.client_id !== undefined) await checkClient(ctx, current.type, clientId);
  const dateUntil = body.date_until === undefined ? current.date_until : body.date_until;
  assertDates(body.date_from === undefined ? current.date_from : body.date_from, dateUntil);
  checkSettings(settings);
  if (status !== undefined) assertStatusMove(current.status, status);
  const columns: RowChanges<'contracts'> = { ...plain };
  if (settings !== undefined) columns.settings = JSON.stringify(mergeSettings(current.settings, settings));
  // The date rule runs on every write that could trigger it: a new status or a new last day.
  const next: ContractStatus = status ?? current.status;
  if (status !== undefined || body.date_until !== undefined)
    columns.status = settleStatus(next, dateUntil, todayIn(ctx.company.timezone));
  return columns;
}

/** PATCH: If-Match always (financial write), checked under the row lock; settings merge key by key. */
export async function updateContract(ctx: Ctx, id: number, body: ContractUpdateBody, precondition: Precondition) {
  return inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.lockContract(tx, id), 'Contract');
    assertFresh(precondition, current.updated_at);
    if (Object.keys(body).length > 0) await repo.contracts.update(tx, id, await updateColumns(tx, current, body));
    return getContract(tx, id);
  });
}

/** DELETE: only a pending contract (on hold); a soft delete. */
export async function deleteContract(ctx: Ctx, id: number, precondition: Precondition): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.lockContract(tx, id), 'Contract');
    assertFresh(precondition, current.updated_at);
    assertDeletable(current.status);
    await repo.contracts.softDelete(tx, id);
  });
}
