import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { assertWindow } from '../../platform/date-window.ts';
import { domainValidation } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { lockLive } from '../../platform/references.ts';
import { insertDraft, readInvoice, type InvoiceRecord } from '../invoices/index.ts';
import { localToday } from '../../platform/dates.ts';
import { duePeriod, periodLabel, type Period } from './billing.periods.ts';
import * as repo from './billing.repository.ts';
import { feeRow, timeRows, type DraftRow } from './billing.rows.ts';

export interface BillBody {
  date_from?: string;
  date_to?: string;
}

export interface Skip {
  reason: 'nothing_to_bill' | 'no_price';
  message: string;
  count?: number;
  time_entry_ids?: number[];
}

export interface ContractOutcome {
  contract_id: number;
  period_from: string;
  period_until: string;
  invoice_id: number | null;
  time_entries: number;
  fees: number;
  skipped: Skip[];
}

export interface BillResult {
  invoices: InvoiceRecord[];
  contracts: ContractOutcome[];
}

function windowOf(body: BillBody, contract: repo.ContractTerms, today: string): Period {
  if (body.date_from !== undefined && body.date_to !== undefined) return { from: body.date_from, until: body.date_to };
  return duePeriod(today, contract.invoice_period, contract.invoice_day);
}

function assertRange(body: BillBody): void {
  const sent = [body.date_from, body.date_to].filter((d) => d !== undefined).length;
  if (sent === 1)
    throw domainValidation('DATE_RANGE_INCOMPLETE', 'date_from and date_to are sent together or not at all', {
      field: body.date_from === undefined ? 'date_from' : 'date_to',
    });
  // At most a year: each open-ended contract bills a fee period per month of the window, in one transaction.
  if (body.date_from && body.date_to) assertWindow({ from: body.date_from, to: body.date_to });
}

/** What one contract bills in its window: priced time rows, fee rows, and what was skipped. */
function planContract(
  contract: repo.ContractTerms,
  period: Period,
  lines: repo.WorkLine[],
  fees: repo.FeeLine[],
  terms: Map<number, repo.RowTerms>,
) {
  const mine = lines.filter(
    (l) => l.contract_id === contract.contract_id && l.day >= period.from && l.day <= period.until,
  );
  const unpriced = mine.filter((l) => l.price === null);
  const time = timeRows(
    mine.filter((l) => l.price !== null),
    terms,
    contract.summarized_description,
    period,
  );
  const feeLines = fees.filter((f) => f.contract_id === contract.contract_id && f.price !== null);
  const fee = feeLines.map((f) => feeRow(f, terms.get(f.row_id)!));
  const skipped: Skip[] = [];
  if (unpriced.length > 0)
    skipped.push({
      reason: 'no_price',
      message: 'Time entries without a price effective on their day were not billed',
      count: unpriced.length,
      time_entry_ids: unpriced.map((l) => l.id).slice(0, 100),
    });
  const unpricedFees = fees.filter((f) => f.contract_id === contract.contract_id && f.price === null);
  if (unpricedFees.length > 0)
    skipped.push({
      reason: 'no_price',
      message: 'Fee rows without a price were not billed',
      count: unpricedFees.length,
    });
  return { rows: [...fee, ...time], skipped, entries: mine.length - unpriced.length, fees: fee.length };
}

async function writeInvoice(
  tx: Ctx,
  clientId: number,
  contract: repo.ContractTerms,
  period: Period,
  rows: DraftRow[],
  today: string,
  explicit: boolean,
): Promise<number> {
  const billsTime = rows.some((r) => r.entryIds.length > 0);
  const { id, rowIds } = await insertDraft(
    tx,
    {
      client_id: clientId,
      contract_id: contract.contract_id,
      invoice_date: today,
      period_label: periodLabel(period, explicit ? null : contract.invoice_period),
      rows: rows.map((r) => r.input),
    },
    { period_from: period.from, period_until: period.until, bills_time: billsTime },
  );
  await repo.linkBilled(
    tx,
    id,
    rows.flatMap((r, i) => (r.entryIds.length > 0 ? [{ rowId: rowIds[i]!, entryIds: r.entryIds }] : [])),
    rows.flatMap((r, i) => (r.fee ? [{ rowId: rowIds[i]!, ...r.fee }] : [])),
  );
  return id;
}

/**
 * POST /clients/{id}/invoices: one draft per active contract with anything to bill. The client row is locked
 * first, so two runs for one client serialize and the second finds everything already linked.
 */
export async function billClient(ctx: Ctx, clientId: number, body: BillBody): Promise<BillResult> {
  assertRange(body);
  return inTransaction(ctx, async (tx) => {
    orNotFound(await lockLive(tx, 'clients', clientId), 'Client');
    const today = localToday(tx.company.timezone);
    const contracts = await repo.activeContracts(tx, clientId);
    const windows = contracts.map((k) => windowOf(body, k, today));
    if (contracts.length === 0) return { invoices: [], contracts: [] };
    const from = windows.map((w) => w.from).sort()[0]!;
    const to = windows
      .map((w) => w.until)
      .sort()
      .at(-1)!;
    const lines = await repo.workLines(tx, { from, to, clientId });
    const terms = await repo.rowTerms(
      tx,
      contracts.map((k) => k.contract_id),
    );
    const outcomes: ContractOutcome[] = [];
    const invoices: InvoiceRecord[] = [];
    for (const [i, contract] of contracts.entries()) {
      const period = windows[i]!;
      const fees = (await repo.feeLines(tx, { from: period.from, to: period.until, clientId })).filter(
        (f) => body.date_from !== undefined || f.period_from === period.from,
      );
      const plan = planContract(contract, period, lines, fees, terms);
      const outcome = { contract_id: contract.contract_id, period_from: period.from, period_until: period.until };
      if (plan.rows.length === 0) {
        const nothing: Skip = { reason: 'nothing_to_bill', message: 'Nothing unbilled in the period' };
        outcomes.push({ ...outcome, invoice_id: null, time_entries: 0, fees: 0, skipped: [...plan.skipped, nothing] });
        continue;
      }
      const id = await writeInvoice(tx, clientId, contract, period, plan.rows, today, body.date_from !== undefined);
      invoices.push(await readInvoice(tx, id));
      outcomes.push({ ...outcome, invoice_id: id, time_entries: plan.entries, fees: plan.fees, skipped: plan.skipped });
    }
    return { invoices, contracts: outcomes };
  });
}
