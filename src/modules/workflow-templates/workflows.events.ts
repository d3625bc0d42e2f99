import type { Ctx } from '../../platform/context.ts';
import { recordEvents, type EventAction } from '../../platform/events.ts';
import { projectEventRows } from '../projects/index.ts';
import { leanTaskRows } from '../tasks/index.ts';

// The tasks and projects the workflow jobs write are ordinary live records, so they fire the same events as
// when written one by one, in the same shapes (the task's lean record, the project record); read in one query
// per chunk, recorded in one insert. Deletes are not among them: the spec lists workflow-template task deletes
// and the replace teardown as firing nothing, so the instances a push drops go quietly.

export async function taskEvents(
  ctx: Ctx,
  action: Exclude<EventAction, 'deleted'>,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  // A task just made has no assignees and no time yet: the tasks' read leaves those lookups out.
  await recordEvents(ctx, 'task', action, await leanTaskRows(ctx, ids, action === 'created'));
}

export async function projectsCreated(ctx: Ctx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await recordEvents(ctx, 'project', 'created', await projectEventRows(ctx, ids));
}
