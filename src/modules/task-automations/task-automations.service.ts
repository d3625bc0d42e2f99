import type { TaskAutomationListParams } from './task-automations.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { invalidReference } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReference, liveIds } from '../../platform/references.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import type {
  ActionsBody,
  TaskAutomationCreateBody,
  TaskAutomationRecord,
  TaskAutomationUpdateBody,
} from './task-automations.schemas.ts';
import * as repo from './task-automations.repository.ts';

type Locked = { id: number; trigger: string; active: boolean };
const target = {
  what: 'Task automation',
  lock: repo.automations.lock as (ctx: Ctx, id: number) => Promise<Locked | undefined>,
  read: repo.findAutomation,
};

export const listAutomations = (ctx: Ctx, params: TaskAutomationListParams) => repo.listAutomations(ctx, params);

export async function getAutomation(ctx: Ctx, id: number): Promise<TaskAutomationRecord> {
  return orNotFound(await repo.findAutomation(ctx, id), 'Task automation');
}

/** Every person an action names must be a live person of the company (400 INVALID_PERSON, naming the field). */
async function checkActions(ctx: Ctx, actions: ActionsBody): Promise<void> {
  await assertReference(ctx, 'people', 'person', 'actions.assign_person_id', actions.assign_person_id);
  await assertReference(
    ctx,
    'people',
    'person',
    'actions.follow_up.assign_person_id',
    actions.follow_up?.assign_person_id,
  );
  const notify = actions.notify_person_ids ?? [];
  const found = await liveIds(ctx, 'people', notify);
  const missing = notify.find((id) => !found.has(id));
  if (missing !== undefined) throw invalidReference('person', 'actions.notify_person_ids', missing);
}

async function checkBody(ctx: Ctx, body: TaskAutomationUpdateBody): Promise<void> {
  await assertReference(ctx, 'clients', 'client', 'client_id', body.client_id);
  await assertReference(ctx, 'projects', 'project', 'project_id', body.project_id);
  await assertReference(ctx, 'topics', 'topic', 'topic_id', body.topic_id);
  if (body.actions) await checkActions(ctx, body.actions);
}

function columnsFrom(body: TaskAutomationUpdateBody): RowChanges<'task_automations'> {
  const { actions, ...plain } = body;
  return { ...plain, ...(actions ? { actions: JSON.stringify(actions) } : {}) };
}

/** A status_changed rule that starts to run needs every task's current status to compare the next one with. */
async function prepareTrigger(ctx: Ctx, before: Locked | undefined, after: { trigger: string; active: boolean }) {
  const runsNow = after.trigger === 'status_changed' && after.active;
  const ranBefore = before?.trigger === 'status_changed' && before.active;
  if (runsNow && !ranBefore) await repo.seedTaskStates(ctx);
}

export async function createAutomation(ctx: Ctx, body: TaskAutomationCreateBody): Promise<TaskAutomationRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkBody(tx, body);
    const id = await repo.automations.insert(tx, {
      name: body.name,
      trigger: body.trigger,
      client_id: body.client_id ?? null,
      project_id: body.project_id ?? null,
      topic_id: body.topic_id ?? null,
      type: body.type ?? null,
      status: body.status ?? null,
      actions: JSON.stringify(body.actions),
      active: body.active ?? true,
    });
    await prepareTrigger(tx, undefined, { trigger: body.trigger, active: body.active ?? true });
    return getAutomation(tx, id);
  });
}

export const updateAutomation = (ctx: Ctx, id: number, body: TaskAutomationUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, locked) => {
    await checkBody(tx, body);
    await repo.automations.update(tx, id, columnsFrom(body));
    await prepareTrigger(tx, locked, {
      trigger: body.trigger ?? locked.trigger,
      active: body.active ?? locked.active,
    });
  });

export const deleteAutomation = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.automations.softDelete(tx, id));
