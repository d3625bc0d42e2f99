import type { Ctx } from '../../platform/context.ts';
import { recordEvent } from '../../platform/events.ts';
import { expandOccurrences, type Occurrence, type RecurrenceRule } from './tasks.recurrence.ts';
import type { TaskLeanRecord, TaskRecord } from './tasks.schemas.ts';
import * as repo from './tasks.repository.ts';

/** The webhook shape of a task: the record without its inlined comments. */
export function leanTask(task: TaskRecord): TaskLeanRecord {
  const { comments: _comments, comments_truncated: _truncated, ...lean } = task;
  return lean;
}

type Existing = Awaited<ReturnType<typeof repo.liveOccurrences>>[number];

/** Only untouched future occurrences follow a schedule change; started, finished or past ones are history. */
const adjustable = (o: Existing, now: Date) =>
  o.status === 'new' && o.date !== null && Date.parse(o.date) > now.getTime();

async function createOccurrence(ctx: Ctx, master: TaskRecord, occurrence: Occurrence): Promise<void> {
  const id = await repo.tasks.insert(ctx, {
    client_id: master.client_id,
    project_id: master.project_id,
    topic_id: master.topic_id,
    title: master.title,
    description: master.description,
    type: master.type,
    is_important: master.is_important,
    is_extra: master.is_extra,
    estimation: master.estimation,
    timezone: master.timezone,
    workflow_role_ids: master.workflow_role_ids,
    custom_fields: master.custom_fields === null ? null : JSON.stringify(master.custom_fields),
    status: 'new',
    is_recurring: 0,
    has_due_date: 0,
    date: occurrence.date,
    recurrence_parent_id: master.id,
    recurrence_date: occurrence.recurrence_date,
  });
  await repo.copyAssignees(ctx, master.id, [id]);
  await recordEvent(ctx, 'task', 'created', leanTask((await repo.findTask(ctx, id, false))!));
}

/**
 * Materialises a master's occurrences for the horizon (rule null: the series ends). Each occurrence is a task
 * row with recurrence_parent_id = master and recurrence_date = its local day. Days no longer scheduled lose
 * their untouched future occurrence, rescheduled days move it, and missing days are created; each change fires
 * its task event like any other write. Answers how many occurrences it created.
 */
export async function syncOccurrences(
  ctx: Ctx,
  master: TaskRecord,
  rule: RecurrenceRule | null,
  now = new Date(),
): Promise<number> {
  const existing = await repo.liveOccurrences(ctx, master.id);
  const wanted = rule ? expandOccurrences(rule, ctx.company.timezone, now) : [];
  const wantedDays = new Set(wanted.map((o) => o.recurrence_date));
  const removed = existing.filter((o) => adjustable(o, now) && !wantedDays.has(o.recurrence_date!));
  await repo.tasks.softDelete(
    ctx,
    removed.map((o) => o.id),
  );
  for (const o of removed) await recordEvent(ctx, 'task', 'deleted', { id: o.id });
  const byDay = new Map(existing.map((o) => [o.recurrence_date, o]));
  let created = 0;
  for (const occurrence of wanted) {
    const have = byDay.get(occurrence.recurrence_date);
    if (!have) {
      await createOccurrence(ctx, master, occurrence);
      created++;
    } else if (adjustable(have, now) && have.date !== occurrence.date) {
      await repo.tasks.update(ctx, have.id, { date: occurrence.date });
      await recordEvent(ctx, 'task', 'updated', leanTask((await repo.findTask(ctx, have.id, false))!));
    }
  }
  return created;
}
