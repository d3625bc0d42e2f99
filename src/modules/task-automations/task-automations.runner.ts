import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { inTransaction, type Ctx } from '../../platform/context.ts';
import { companyRefusal, systemActor } from '../../platform/system-actor.ts';
import { tenant } from '../../platform/tenant-table.ts';
import { dueOpenTasks, type DueTask } from '../tasks/index.ts';
import { markAutomationWork, runRule, type Firing } from './task-automations.actions.ts';
import { liveRules } from './task-automations.repository.ts';
import type { TaskAutomationRecord } from './task-automations.schemas.ts';

/** Queued events per batch, and tasks per rule per due-date scan: a larger backlog is worked off over several runs. */
const BATCH = 100;
const MAX_BATCHES = 20;
/** A queued event that failed this often is left (kept for inspection until its event expires). */
export const MAX_ATTEMPTS = 5;
/** Due dates further back than this when a rule starts are not acted on (a new rule does not replay history). */
const DUE_LOOKBACK_DAYS = 7;

export type RunResult = { events: number; runs: number; failed: number };

/** The service's own context per company, or undefined when the company may no longer have work done. */
function contexts(db: Executor) {
  const cache = new Map<string, Ctx | undefined>();
  return async (companyId: string): Promise<Ctx | undefined> => {
    if (!cache.has(companyId)) {
      const actor = await systemActor(db, companyId);
      const usable = actor && companyRefusal(actor.company) === null;
      cache.set(companyId, usable ? { ...actor, db, requestId: 'task-automations' } : undefined);
    }
    return cache.get(companyId);
  };
}

interface Queued {
  uuid: string;
  action: string;
  record_id: number;
  data: Record<string, unknown>;
  occurred_at: string;
}

/** Takes the event off the queue inside the transaction that acts on it: it commits with the actions or stays queued. */
async function takeQueued(ctx: Ctx, eventId: number): Promise<Queued | undefined> {
  const result = await sql<Queued>`delete from task_automation_queue q using events e
    where ${tenant(ctx, 'q')} and q.event_id = ${eventId} and e.company_id = q.company_id and e.id = q.event_id
    returning e.uuid, e.action, e.record_id, e.data, e.occurred_at`.execute(ctx.db);
  return result.rows[0];
}

async function runRules(ctx: Ctx, rules: TaskAutomationRecord[], firing: Firing): Promise<number> {
  let ran = 0;
  for (const rule of rules) if (await runRule(ctx, rule, firing)) ran++;
  return ran;
}

/** One queued task event: every live rule of its trigger, in one transaction marked as automation work. */
function processEvent(ctx: Ctx, eventId: number): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const event = await takeQueued(tx, eventId);
    if (!event) return 0; // another runner took it
    await markAutomationWork(tx);
    const isOccurrence = event.data.recurrence_parent_id !== null && event.data.recurrence_parent_id !== undefined;
    const trigger =
      event.action === 'created' ? (isOccurrence ? 'occurrence_created' : 'task_created') : 'status_changed';
    return runRules(tx, await liveRules(tx, trigger), {
      trigger,
      taskId: event.record_id,
      key: `event:${event.uuid}`,
      at: new Date(event.occurred_at),
      snapshot: event.data,
    });
  });
}

/** One queued event; a failure leaves it queued with one more attempt, for a later run. */
async function processQueued(db: Executor, ctx: Ctx, eventId: number, result: RunResult): Promise<void> {
  try {
    result.runs += await processEvent(ctx, eventId);
    result.events++;
  } catch {
    result.failed++;
    // The runner serves every company; the event's company is the ctx's.
    await sql`update task_automation_queue set attempts = attempts + 1
      where ${tenant(ctx)} and event_id = ${eventId}`.execute(db);
  }
}

/**
 * Works the queue the outbox trigger fills, oldest event first, batch after batch until it is empty (at most
 * MAX_BATCHES per run, so one run stays short). Each event is tried once per run: the walk moves past it.
 */
export async function processQueue(db: Executor): Promise<RunResult> {
  const result: RunResult = { events: 0, runs: 0, failed: 0 };
  const contextOf = contexts(db);
  let after = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    // tenant: deliberate SQL (the runner serves every company)
    const queued = await sql<{ company_id: string; event_id: number }>`select company_id, event_id
      from task_automation_queue where attempts < ${MAX_ATTEMPTS} and event_id > ${after}
      order by event_id limit ${BATCH}`.execute(db);
    for (const { company_id, event_id } of queued.rows) {
      after = event_id;
      const ctx = await contextOf(company_id);
      if (ctx) await processQueued(db, ctx, event_id, result);
    }
    if (queued.rows.length < BATCH) break;
  }
  return result;
}

/** Open tasks of the company whose due date has come since the rule started, not yet acted on by it. */
async function dueTasks(ctx: Ctx, rule: TaskAutomationRecord & { created_at: string }, now: Date) {
  const since = Math.max(Date.parse(rule.created_at), now.getTime() - DUE_LOOKBACK_DAYS * 24 * 3600 * 1000);
  // The anti-join on the run markers, on the task aliased t.
  const ranAlready = sql<boolean>`exists (select 1 from task_automation_runs r where r.company_id = t.company_id
        and r.automation_id = ${rule.id}
        and r.trigger_key = 'due:' || t.id || ':' || (extract(epoch from t.due_date) * 1000)::bigint)`;
  const due = { since: new Date(since).toISOString(), until: now.toISOString() };
  return dueOpenTasks(ctx, due, ranAlready, BATCH);
}

/** One rule and one task whose due date was reached: its own transaction, marked as automation work. */
function processDue(ctx: Ctx, rule: TaskAutomationRecord, task: DueTask): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    await markAutomationWork(tx);
    return runRule(tx, rule, {
      trigger: 'due_date_reached',
      taskId: task.id,
      key: `due:${task.id}:${task.due_ms}`,
      at: new Date(task.due_date),
      snapshot: task as unknown as Record<string, unknown>,
    });
  });
}

/** The periodic due-date scan: each live due_date_reached rule acts once per task and due date. */
export async function scanDueDates(db: Executor, now = new Date()): Promise<RunResult> {
  const result: RunResult = { events: 0, runs: 0, failed: 0 };
  const contextOf = contexts(db);
  // tenant: deliberate SQL (the scan serves every company)
  const companies = await sql<{ company_id: string }>`select distinct company_id from task_automations
    where trigger = 'due_date_reached' and active and deleted_at is null`.execute(db);
  for (const { company_id } of companies.rows) {
    const ctx = await contextOf(company_id);
    if (!ctx) continue;
    // Every rule's due tasks are read before any acts: one rule moving a due date must not hide it from the next.
    const work: Array<[TaskAutomationRecord, DueTask]> = [];
    for (const rule of await liveRules(ctx, 'due_date_reached'))
      for (const task of await dueTasks(ctx, rule, now)) work.push([rule, task]);
    for (const [rule, task] of work) {
      try {
        if (await processDue(ctx, rule, task)) result.runs++;
      } catch {
        result.failed++;
      }
    }
  }
  return result;
}
