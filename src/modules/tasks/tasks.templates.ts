import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import * as repo from './tasks.repository.ts';
import type { LockedTask } from './tasks.repository.ts';

/**
 * Master (template) rows are workflow configuration, not work: they change through their template's routes,
 * which fire no task events. Through /tasks they are read-only, so no client-facing task event fires for them.
 */

const pathOf = (kind: string | null, templateId: number | null, taskId: number) => {
  const base = kind === 'project_workflow' ? '/project-workflows' : '/workflow-templates';
  return templateId !== null ? `${base}/${templateId}/tasks/${taskId}` : `${base}/{id}/tasks`;
};

export async function assertNotTemplate(ctx: Ctx, current: LockedTask): Promise<void> {
  if (current.template_kind === null) return;
  const [row] = await repo.templateRows(ctx, [current.id]);
  const templateId = row?.template_id ?? null;
  const path = pathOf(current.template_kind, templateId, current.id);
  throw new AppError(
    'READ_ONLY',
    `Task ${current.id} is a master task of a workflow template; change it through ${path}`,
    {
      reason: 'TEMPLATE_TASK',
      task_id: current.id,
      template_kind: current.template_kind,
      template_id: templateId,
      path,
    },
  );
}

/** Locks a task a /tasks write may change: 404 when absent or invisible, 403 READ_ONLY for a master row. */
export async function lockWorkTask(ctx: Ctx, id: number): Promise<LockedTask> {
  const current = orNotFound(await repo.lockTask(ctx, id), 'Task');
  await assertNotTemplate(ctx, current);
  return current;
}

/** A template (plan) client holds only its template's master rows: work cannot be filed under it. */
export async function assertWorkClient(ctx: Ctx, clientId: number | null | undefined, field = 'client_id') {
  if (clientId == null || !(await repo.isTemplateClient(ctx, clientId))) return;
  throw new AppError(
    'INVALID_CLIENT',
    `Client ${clientId} is a workflow template's client; it holds master tasks only`,
    {
      field,
      value: clientId,
      reason: 'TEMPLATE_CLIENT',
    },
  );
}

/** A bulk action names master rows by id: refused as a whole, like a single write to one of them. */
export async function assertNoTemplateRows(ctx: Ctx, ids: readonly number[]): Promise<void> {
  const rows = await repo.templateRows(ctx, ids);
  if (rows.length === 0) return;
  throw new AppError(
    'READ_ONLY',
    'filter.ids names master tasks of workflow templates; change them through the templates',
    {
      reason: 'TEMPLATE_TASK',
      field: 'filter.ids',
      invalid_ids: rows.map((r) => r.id),
    },
  );
}
