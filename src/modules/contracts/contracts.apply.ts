import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { liveIds } from '../../platform/references.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { copyRows } from './contract-rows.repository.ts';
import { assertApplySize } from './contracts.limits.ts';
import * as repo from './contracts.repository.ts';
import type { ApplyBodyType, ApplyOutcomeRecord, ApplyResultRecord } from './contracts.schemas.ts';
import { mergeSettings } from './contracts.settings.ts';
import { addDays, localToday as todayIn } from '../../platform/dates.ts';
import { settleStatus } from './contracts.status.ts';

/**
 * POST /contracts/{id}/apply: a template onto up to 200 clients, synchronously, in the request's one transaction.
 * The plan is worked out from reads first (a dry run answers it and stops); the writes then carry it out.
 */
export async function applyTemplate(
  ctx: Ctx,
  templateId: number,
  body: ApplyBodyType,
  query: { dry_run?: boolean } = {},
): Promise<ApplyOutcomeRecord> {
  const start = body.start_date ?? null;
  if (body.mode !== 'append' && start === null)
    throw domainValidation('START_DATE_REQUIRED', `start_date is required for mode ${body.mode}`, {
      field: 'start_date',
    });
  // A dry run said anywhere is one: writing when either place asked for none would be the harmful reading.
  const dryRun = body.dry_run === true || query.dry_run === true;
  return inTransaction(ctx, async (tx) => {
    const template = orNotFound(await repo.lockContract(tx, templateId), 'Contract');
    if (template.type !== 'template')
      throw domainValidation('NOT_A_TEMPLATE', `Contract ${templateId} is not a template; only templates are applied`, {
        field: 'contract_id',
        type: template.type,
      });
    const known = await liveIds(tx, 'clients', body.client_ids);
    const live = await repo.liveContractsOf(tx, [...known], !dryRun);
    const results = body.client_ids.map((clientId) =>
      known.has(clientId)
        ? planFor(
            body.mode,
            clientId,
            live.filter((c) => c.client_id === clientId),
            templateId,
            start,
          )
        : unknownClient(clientId),
    );
    const created = results.filter((r) => r.action === 'created').length;
    await assertApplySize(tx, templateId, created, appendTargets(results));
    if (!dryRun) await carryOut(tx, template, results, live, start);
    return {
      template_id: templateId,
      mode: body.mode,
      dry_run: dryRun,
      start_date: start,
      results,
      summary: summarize(results),
    };
  });
}

/** The live contracts an append copies the template's rows onto. */
const appendTargets = (results: readonly ApplyResultRecord[]) =>
  results.flatMap((r) => (r.action === 'appended' ? r.contract_ids! : []));

function unknownClient(clientId: number): ApplyResultRecord {
  return {
    client_id: clientId,
    action: 'error',
    contract_id: null,
    error: { code: 'INVALID_CLIENT', message: `client_id ${clientId} does not name a client of this company` },
  };
}

/** What one client gets; contract_id stays null for a contract still to be made. */
function planFor(
  mode: ApplyBodyType['mode'],
  clientId: number,
  live: readonly repo.LiveContract[],
  templateId: number,
  start: string | null,
): ApplyResultRecord {
  if (mode === 'add') return { client_id: clientId, action: 'created', contract_id: null };
  if (mode === 'append') {
    if (live.length === 0) return { client_id: clientId, action: 'skipped', contract_id: null, contract_ids: [] };
    const ids = live.map((c) => c.id);
    return { client_id: clientId, action: 'appended', contract_id: ids[0]!, contract_ids: ids };
  }
  // replace: one contract already on this template is re-dated; every other live one that would still run on
  // start_date is ended the day before.
  const keep = live.find((c) => c.parent_id === templateId);
  const ended = live.filter((c) => c !== keep && (c.date_until === null || c.date_until >= start!)).map((c) => c.id);
  return keep
    ? { client_id: clientId, action: 'redated', contract_id: keep.id, ended_contract_ids: ended }
    : { client_id: clientId, action: 'created', contract_id: null, ended_contract_ids: ended };
}

function summarize(results: readonly ApplyResultRecord[]) {
  const count = (action: string) => results.filter((r) => r.action === action).length;
  return {
    created: count('created'),
    redated: count('redated'),
    appended: count('appended'),
    ended: results.reduce((n, r) => n + (r.ended_contract_ids?.length ?? 0), 0),
    skipped: count('skipped'),
    errors: count('error'),
  };
}

async function carryOut(
  ctx: Ctx,
  template: repo.LockedContract,
  results: ApplyResultRecord[],
  live: readonly repo.LiveContract[],
  start: string | null,
): Promise<void> {
  const today = todayIn(ctx.company.timezone);
  await createFromTemplate(ctx, template, results, start!);
  const ended = new Set(results.flatMap((r) => r.ended_contract_ids ?? []));
  await endBefore(
    ctx,
    live.filter((c) => ended.has(c.id)),
    start,
    today,
  );
  for (const result of results.filter((r) => r.action === 'redated'))
    await redate(
      ctx,
      live.find((c) => c.id === result.contract_id)!,
      start!,
      today,
    );
  const appendTo = appendTargets(results);
  if (appendTo.length > 0) {
    await copyRows(ctx, template.id, appendTo);
    // Appending makes the contract the client's own: the package link is cleared.
    await repo.contracts.update(ctx, appendTo, { parent_id: null });
  }
}

/** One insert for every new contract, then one statement copying the template's rows and row prices onto them. */
async function createFromTemplate(
  ctx: Ctx,
  template: repo.LockedContract,
  results: ApplyResultRecord[],
  start: string,
) {
  const toCreate = results.filter((r) => r.action === 'created');
  if (toCreate.length === 0) return;
  const settings = JSON.stringify(mergeSettings(template.settings, undefined));
  const made = await scoped
    .insert(
      ctx,
      'contracts',
      toCreate.map((r) => ({
        client_id: r.client_id,
        name: template.name,
        type: 'contract' as const,
        status: 'active' as const,
        parent_id: template.id,
        template_name: template.name,
        date_from: start,
        date_until: null,
        invoice_period: template.invoice_period,
        invoice_day: template.invoice_day,
        settings,
      })),
    )
    .returning(['id', 'client_id'])
    .execute();
  const idOf = new Map(made.map((m) => [m.client_id, m.id]));
  for (const result of toCreate) result.contract_id = idOf.get(result.client_id) ?? null;
  await copyRows(ctx, template.id, [...idOf.values()]);
}

/**
 * Ends contracts the day before start: date_until = start − 1 (finished at once when that day has come). One that
 * would only start on or after start_date never runs: it is finished with its dates kept.
 */
async function endBefore(ctx: Ctx, contracts: readonly repo.LiveContract[], start: string | null, today: string) {
  if (contracts.length === 0 || start === null) return;
  const started = contracts.filter((c) => c.date_from === null || c.date_from < start).map((c) => c.id);
  const unstarted = contracts.filter((c) => c.date_from !== null && c.date_from >= start).map((c) => c.id);
  await repo.endContracts(ctx, started, addDays(start, -1), today);
  if (unstarted.length > 0) await repo.contracts.update(ctx, unstarted, { status: 'finished' });
}

/** A contract already on the template starts on start_date; an end before that day is cleared. */
async function redate(ctx: Ctx, contract: repo.LiveContract, start: string, today: string) {
  const dateUntil = contract.date_until !== null && contract.date_until < start ? null : contract.date_until;
  await repo.contracts.update(ctx, contract.id, {
    date_from: start,
    date_until: dateUntil,
    status: settleStatus(contract.status, dateUntil, today),
  });
}
