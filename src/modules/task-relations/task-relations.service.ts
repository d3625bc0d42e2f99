import type { TaskRelationListParams } from './task-relations.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { liveIds } from '../../platform/references.ts';
import type { TaskRelationCreateBody, TaskRelationRecord } from './task-relations.schemas.ts';
import * as repo from './task-relations.repository.ts';

const target = { what: 'Task relation', lock: repo.lockTaskRelation };

export const listTaskRelations = (ctx: Ctx, params: TaskRelationListParams) => repo.listTaskRelations(ctx, params);

export async function getTaskRelation(ctx: Ctx, id: number): Promise<TaskRelationRecord> {
  return orNotFound(await repo.findTaskRelation(ctx, id), 'Task relation');
}

async function requireTasks(ctx: Ctx, body: TaskRelationCreateBody): Promise<void> {
  const shown = await liveIds(ctx, 'tasks', [body.task_id, body.depends_on_id]);
  if (!shown.has(body.task_id)) throw invalidReference('task', 'task_id', body.task_id);
  if (!shown.has(body.depends_on_id)) throw invalidReference('task', 'depends_on_id', body.depends_on_id);
}

export async function createTaskRelation(ctx: Ctx, body: TaskRelationCreateBody): Promise<TaskRelationRecord> {
  if (body.task_id === body.depends_on_id) {
    throw domainValidation('SELF_DEPENDENCY', 'A task cannot depend on itself', {
      field: 'depends_on_id',
      value: body.depends_on_id,
    });
  }
  return inTransaction(ctx, async (tx) => {
    await requireTasks(tx, body);
    await repo.serialiseRelationWrites(tx);
    const existing = await repo.findLive(tx, body.task_id, body.depends_on_id);
    if (existing) {
      throw new AppError('TASK_RELATION_EXISTS', `Task ${body.task_id} already depends on task ${body.depends_on_id}`, {
        task_relation_id: existing.id,
      });
    }
    if (await repo.dependsTransitively(tx, body.depends_on_id, body.task_id)) {
      throw new AppError(
        'TASK_RELATION_CYCLE',
        `Task ${body.depends_on_id} already depends (directly or indirectly) on task ${body.task_id}; the relation would make a cycle`,
        {
          task_id: body.task_id,
          depends_on_id: body.depends_on_id,
        },
      );
    }
    const id = await repo.taskRelations.insert(tx, { task_id: body.task_id, depends_on_id: body.depends_on_id });
    return getTaskRelation(tx, id);
  });
}

export const deleteTaskRelation = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.taskRelations.softDelete(tx, id));
