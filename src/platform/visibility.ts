import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from './context.ts';
import { localToday } from './dates.ts';

/**
 * What a personal key of a plain member may see (owners and admins, and integration keys, see the
 * whole company): clients whose default person they are or that they belong to through client
 * members, and everything hanging off those clients. Used by every query that lists or reads,
 * so an invisible record answers 404 exactly like another tenant's.
 */
export function clientVisible(ctx: Ctx, clientAlias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const person = ctx.actor.personId;
  return sql<boolean>`(${sql.ref(`${clientAlias}.default_person_id`)} = ${person} or exists (
    select 1 from client_members cm
    where cm.company_id = ${sql.ref(`${clientAlias}.company_id`)} and cm.client_id = ${sql.ref(`${clientAlias}.id`)}
      and cm.person_id = ${person} and cm.deleted_at is null))`;
}

/** The same rule for a row that points at a client by id (contacts, tasks...). */
export function clientIdVisible(ctx: Ctx, companyRef: string, clientIdRef: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const person = ctx.actor.personId;
  return sql<boolean>`exists (
    select 1 from clients vc
    where vc.company_id = ${sql.ref(companyRef)} and vc.id = ${sql.ref(clientIdRef)} and vc.deleted_at is null
      and (vc.default_person_id = ${person} or exists (
        select 1 from client_members cm
        where cm.company_id = vc.company_id and cm.client_id = vc.id and cm.person_id = ${person} and cm.deleted_at is null)))`;
}

/**
 * Tasks a plain member sees: those assigned to them, those assigned to someone who delegated their tasks
 * to them by a delegation active today (company timezone; see modules/delegations), and those under a
 * client they see. A task with no client and no assignment to them (or their delegators) stays invisible.
 */
export function taskVisible(ctx: Ctx, taskAlias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const person = ctx.actor.personId;
  const today = localToday(ctx.company.timezone);
  return sql<boolean>`(exists (
      select 1 from task_assignees ta
      where ta.company_id = ${sql.ref(`${taskAlias}.company_id`)} and ta.task_id = ${sql.ref(`${taskAlias}.id`)} and ta.person_id = ${person})
    or exists (
      select 1 from delegations dg join task_assignees dta on dta.company_id = dg.company_id and dta.person_id = dg.delegator_id
      where dg.company_id = ${sql.ref(`${taskAlias}.company_id`)} and dg.delegate_id = ${person} and dg.deleted_at is null
        and dg.scope = 'tasks' and dg.date_from <= ${today}::date and dg.date_until >= ${today}::date
        and dta.task_id = ${sql.ref(`${taskAlias}.id`)})
    or (${sql.ref(`${taskAlias}.client_id`)} is not null and ${clientIdVisible(ctx, `${taskAlias}.company_id`, `${taskAlias}.client_id`)}))`;
}

/** Same rule for a row that points at a task by id (time entries, comments, relations). */
export function taskIdVisible(ctx: Ctx, companyRef: string, taskIdRef: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from tasks vt where vt.company_id = ${sql.ref(companyRef)} and vt.id = ${sql.ref(taskIdRef)}
    and vt.deleted_at is null and ${taskVisible(ctx, 'vt')})`;
}

/** Time entries a plain member sees: their own, and those on tasks they see. */
export function timeEntryVisible(ctx: Ctx, entryAlias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${entryAlias}.person_id`)} = ${ctx.actor.personId}
    or ${taskIdVisible(ctx, `${entryAlias}.company_id`, `${entryAlias}.task_id`)})`;
}

/**
 * Projects a plain member sees: those under a client they see, and those they manage.
 * A project with no client that someone else manages stays invisible to them.
 */
export function projectVisible(ctx: Ctx, projectAlias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${projectAlias}.manager_id`)} = ${ctx.actor.personId}
    or (${sql.ref(`${projectAlias}.client_id`)} is not null and ${clientIdVisible(ctx, `${projectAlias}.company_id`, `${projectAlias}.client_id`)}))`;
}

/** Same rule for a row that points at a project by id (notes, task automations). */
export function projectIdVisible(ctx: Ctx, companyRef: string, projectIdRef: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from projects vp where vp.company_id = ${sql.ref(companyRef)}
    and vp.id = ${sql.ref(projectIdRef)} and vp.deleted_at is null and ${projectVisible(ctx, 'vp')})`;
}

/**
 * Notes a plain member sees: those whose related record they see (clients and projects by their rules);
 * notes on suppliers and members follow those resources, which have no per-person rule.
 */
export function noteVisible(ctx: Ctx, noteAlias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const type = sql.ref(`${noteAlias}.related_type`);
  const company = `${noteAlias}.company_id`;
  const related = `${noteAlias}.related_id`;
  return sql<boolean>`(case ${type}
    when 'client' then ${clientIdVisible(ctx, company, related)}
    when 'project' then ${projectIdVisible(ctx, company, related)}
    else true end)`;
}

/** Same rule for a row that points at a note by id: the note is live and the member sees it. */
export function noteIdVisible(ctx: Ctx, companyRef: string, noteIdRef: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from notes vn where vn.company_id = ${sql.ref(companyRef)}
    and vn.id = ${sql.ref(noteIdRef)} and vn.deleted_at is null and ${noteVisible(ctx, 'vn')})`;
}

/** Files a plain member sees: those of a live task or note they see (each parent by its own rule). */
export function attachmentVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const company = `${alias}.company_id`;
  const related = `${alias}.related_id`;
  return sql<boolean>`(case ${sql.ref(`${alias}.related_type`)}
    when 'task' then ${taskIdVisible(ctx, company, related)}
    when 'note' then ${noteIdVisible(ctx, company, related)}
    else false end)`;
}

/** Rows that hang off a client by their client_id (contacts, client members, documents, folders). */
const ofVisibleClient = (ctx: Ctx, alias: string) => clientIdVisible(ctx, `${alias}.company_id`, `${alias}.client_id`);

/** Digitizations follow their document, which follows its client. */
function digitizationVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from documents vd
    where vd.company_id = ${sql.ref(`${alias}.company_id`)} and vd.id = ${sql.ref(`${alias}.document_id`)}
      and vd.deleted_at is null and ${ofVisibleClient(ctx, 'vd')})`;
}

/**
 * Task automations a plain member sees: those whose client and project conditions name records they see (or
 * none), so a rule does not show a client the member cannot see.
 */
function taskAutomationVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const company = `${alias}.company_id`;
  return sql<boolean>`((${sql.ref(`${alias}.client_id`)} is null or ${clientIdVisible(ctx, company, `${alias}.client_id`)})
    and (${sql.ref(`${alias}.project_id`)} is null or ${projectIdVisible(ctx, company, `${alias}.project_id`)}))`;
}

/** A plain member sees their own calendar entries and the company-wide ones (holidays, which have no person). */
function calendarVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${alias}.person_id`)} = ${ctx.actor.personId} or ${sql.ref(`${alias}.person_id`)} is null)`;
}

/** A plain member sees the delegations they give or receive. */
function delegationVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  const person = ctx.actor.personId;
  return sql<boolean>`(${sql.ref(`${alias}.delegator_id`)} = ${person} or ${sql.ref(`${alias}.delegate_id`)} = ${person})`;
}

/** A plain member sees the audit trail of their own person's writes only. */
function activityVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`${sql.ref(`${alias}.person_id`)} = ${ctx.actor.personId}`;
}

export type VisibilityRule = (ctx: Ctx, alias: string) => RawBuilder<boolean>;

/**
 * The visibility rule of each table that has one, the only place it is defined: the tenant gateway applies it to
 * every base query, lock and read of a restricted key, and the reference checks (src/platform/references.ts) to
 * every id such a key names, so a record it cannot see is absent to it everywhere.
 */
export const VISIBILITY: Partial<Record<string, VisibilityRule>> = {
  clients: clientVisible,
  contacts: ofVisibleClient,
  client_members: ofVisibleClient,
  tasks: taskVisible,
  time_entries: timeEntryVisible,
  projects: projectVisible,
  notes: noteVisible,
  attachments: attachmentVisible,
  documents: ofVisibleClient,
  folders: ofVisibleClient,
  digitizations: digitizationVisible,
  task_automations: taskAutomationVisible,
  calendar_entries: calendarVisible,
  delegations: delegationVisible,
  activities: activityVisible,
};
