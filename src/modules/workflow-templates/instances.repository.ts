import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, tenant, companyValue } from '../../platform/tenant-table.ts';
import { seenClientSql } from '../clients/index.ts';
import { insertProjectsSql, nextProjectIdSql } from '../projects/index.ts';
import { createCopies, deleteUntouched, dropCopiesOfDeleted, refreshCopies, type CopyPairs } from '../tasks/index.ts';
import type { LockedTemplate } from './workflows.repository.ts';
import type { WorkflowKind } from './workflows.schemas.ts';

// Set-based SQL for the apply and push jobs: one statement per step for a whole chunk of clients, never one
// round trip per task. Statements written as raw SQL carry the company predicate by hand (tenant: deliberate SQL).

/** Records the applications; answers the clients newly applied (a client already applied is left out: skipped). */
export async function claimApplications(
  ctx: Ctx,
  templateId: number,
  clientIds: readonly number[],
  jobId: number,
): Promise<number[]> {
  if (clientIds.length === 0) return [];
  // tenant: deliberate SQL
  const result = await sql<{
    client_id: number;
  }>`insert into workflow_applications (company_id, template_id, client_id, job_id)
    select ${companyValue(ctx)}, ${templateId}, c, ${jobId} from unnest(${[...clientIds]}::int[]) c
    on conflict do nothing returning client_id`.execute(ctx.db);
  return result.rows.map((r) => r.client_id).sort((a, b) => a - b);
}

/** One project per newly applied client (project workflows), linked to its application; answers the project ids. */
export async function createProjects(
  ctx: Ctx,
  template: LockedTemplate,
  clientIds: readonly number[],
): Promise<number[]> {
  if (clientIds.length === 0) return [];
  const project = { name: template.name, project_type_id: template.project_type_id };
  // Ids are drawn first so the project and its application link are one statement.
  const result = await sql<{ id: number }>`with src as materialized (
      select ${nextProjectIdSql()} as pid, c as client_id from unnest(${[...clientIds]}::int[]) c),
    ins as (${insertProjectsSql(ctx, 'src', project)}),
    upd as (update workflow_applications a set project_id = src.pid from src
      where ${tenant(ctx, 'a')} and a.template_id = ${template.id} and a.client_id = src.client_id)
    select pid as id from src order by pid`.execute(ctx.db);
  return result.rows.map((r) => r.id);
}

/**
 * Creates, for these applied clients, a live task from every live master that has no instance for the client
 * yet (an instance the user deleted stays deleted), and links each to its master. Due dates count from the company's today.
 */
export async function createInstances(
  ctx: Ctx,
  templateId: number,
  clientIds: readonly number[],
  today: string,
): Promise<number[]> {
  if (clientIds.length === 0) return [];
  // tenant: deliberate SQL
  const missing = await sql<TaskCopyRow>`select a.client_id, a.project_id, m.task_id as source_id, m.due_in_days
      from workflow_applications a
      join workflow_master_tasks m on m.company_id = a.company_id and m.template_id = a.template_id
      where ${tenant(ctx, 'a')} and a.template_id = ${templateId} and a.client_id = any(${[...clientIds]}::int[])
        and not exists (select 1 from workflow_instances i where i.company_id = a.company_id
          and i.template_id = a.template_id and i.client_id = a.client_id and i.master_task_id = m.task_id)
      order by a.client_id, m.task_id`.execute(ctx.db);
  const made = await createCopies(
    ctx,
    missing.rows.map((r) => ({
      sourceId: r.source_id,
      clientId: r.client_id,
      projectId: r.project_id,
      dueInDays: r.due_in_days,
    })),
    today,
  );
  if (made.length === 0) return [];
  // tenant: deliberate SQL
  await sql`insert into workflow_instances (company_id, task_id, template_id, master_task_id, client_id)
    select ${companyValue(ctx)}, x.task_id, ${templateId}, x.master_id, x.client_id
    from unnest(${made.map((r) => r.id)}::int[], ${made.map((r) => r.source_id)}::int[], ${made.map((r) => r.client_id)}::int[])
      as x(task_id, master_id, client_id)`.execute(ctx.db);
  return made.map((r) => r.id);
}

type TaskCopyRow = { client_id: number; project_id: number | null; source_id: number; due_in_days: number | null };

/**
 * Instances of these clients with their master (live or deleted: the tasks module tells them apart). The pairs
 * are read through the instance table's index; the tasks statements then reach tasks by primary key only, so no
 * plan can end up comparing every task of the company with every other.
 */
async function instancePairs(ctx: Ctx, templateId: number, clientIds: readonly number[]): Promise<CopyPairs> {
  const rows = await scoped
    .select(ctx, 'workflow_instances', 'i')
    .select(['i.task_id', 'i.master_task_id'])
    .where('i.template_id', '=', templateId)
    .where('i.client_id', 'in', [...clientIds])
    .execute();
  return { taskIds: rows.map((r) => r.task_id), sourceIds: rows.map((r) => r.master_task_id) };
}

/** Open instances (new, in progress) of these clients whose master changed take the master's fields; answers their ids. */
export async function refreshInstances(ctx: Ctx, templateId: number, clientIds: readonly number[]): Promise<number[]> {
  if (clientIds.length === 0) return [];
  return refreshCopies(ctx, await instancePairs(ctx, templateId, clientIds));
}

/** Untouched instances (status new, no time logged) whose master was deleted go too; answers their ids. */
export async function dropOrphanedInstances(
  ctx: Ctx,
  templateId: number,
  clientIds: readonly number[],
): Promise<number[]> {
  if (clientIds.length === 0) return [];
  return dropCopiesOfDeleted(ctx, await instancePairs(ctx, templateId, clientIds));
}

/**
 * The multi-template replace teardown: these clients leave every other template of the same engine. Their
 * untouched instances of those templates are deleted, the rest stay as ordinary tasks (their link goes with the
 * application). Fires no events (the spec's list of write paths that fire nothing).
 */
export async function teardownOthers(
  ctx: Ctx,
  kind: WorkflowKind,
  templateId: number,
  clientIds: readonly number[],
): Promise<void> {
  if (clientIds.length === 0) return;
  const others = sql`select w.id from workflow_templates w
    where ${tenant(ctx, 'w')} and w.kind = ${kind} and w.id <> ${templateId}`;
  // tenant: deliberate SQL
  const instancesOfOthers = await sql<{ task_id: number }>`select i.task_id from workflow_instances i
    where ${tenant(ctx, 'i')} and i.template_id in (${others})
      and i.client_id = any(${[...clientIds]}::int[])`.execute(ctx.db);
  await deleteUntouched(
    ctx,
    instancesOfOthers.rows.map((r) => r.task_id),
  );
  await sql`delete from workflow_applications a where ${tenant(ctx, 'a')}
    and a.template_id in (${others}) and a.client_id = any(${[...clientIds]}::int[])`.execute(ctx.db);
}

/** Applied clients of a template (the push job's selection), optionally only some of them. */
export async function appliedClients(ctx: Ctx, templateId: number, only?: readonly number[]): Promise<number[]> {
  let query = scoped
    .select(ctx, 'workflow_applications', 'a')
    .select('a.client_id')
    .where('a.template_id', '=', templateId)
    .where(seenClientSql(ctx, 'a.company_id', 'a.client_id'))
    .orderBy('a.client_id');
  if (only) query = query.where('a.client_id', 'in', only.length ? [...only] : [0]);
  return (await query.execute()).map((r) => r.client_id);
}
