import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { conflict, domainValidation, invalidReference, notFound } from '../../platform/errors.ts';
import type { TaskRelationCreateBody, TaskRelationRecord } from './task-relations.schemas.ts';
import * as repo from './task-relations.repository.ts';

export const listTaskRelations = (ctx: Ctx, params: object) => repo.listTaskRelations(ctx, params);

export async function getTaskRelation(ctx: Ctx, id: number): Promise<TaskRelationRecord> {
  const relation = await repo.findTaskRelation(ctx, id);
  if (!relation) throw notFound('Task relation');
  return relation;
}

async function requireTasks(ctx: Ctx, body: TaskRelationCreateBody): Promise<void> {
  const shown = await repo.shownTaskIds(ctx, [body.task_id, body.depends_on_id]);
  if (!shown.has(body.task_id)) throw invalidReference('task', 'task_id', body.task_id);
  if (!shown.has(body.depends_on_id)) throw invalidReference('task', 'depends_on_id', body.depends_on_id);
}

export async function createTaskRelation(ctx: Ctx, body: TaskRelationCreateBody): Promise<TaskRelationRecord> {
  if (body.task_id === body.depends_on_id) {
    throw domainValidation('SELF_DEPENDENCY', 'A task cannot depend on itself', { field: 'depends_on_id', value: body.depends_on_id });
  }
  return inTransaction(ctx, async (tx) => {
    await requireTasks(tx, body);
    await repo.serialiseRelationWrites(tx);
    const existing = await repo.findLive(tx, body.task_id, body.depends_on_id);
    if (existing) {
      throw conflict('TASK_RELATION_EXISTS', `Task ${body.task_id} already depends on task ${body.depends_on_id}`, { task_relation_id: existing.id });
    }
    if (await repo.dependsTransitively(tx, body.depends_on_id, body.task_id)) {
      throw conflict('TASK_RELATION_CYCLE', `Task ${body.depends_on_id} already depends (directly or indirectly) on task ${body.task_id}; the relation would make a cycle`, {
        task_id: body.task_id, depends_on_id: body.depends_on_id,
      });
    }
    const id = await repo.insertTaskRelation(tx, body.task_id, body.depends_on_id);
    return getTaskRelation(tx, id);
  });
}

export async function deleteTaskRelation(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockTaskRelation(tx, id))) throw notFound('Task relation');
    await repo.softDeleteTaskRelation(tx, id);
  });
}
