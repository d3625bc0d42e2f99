import type { TestApp, TenantFixture } from '../helpers.ts';
import { makeFixtures } from './fixtures.ts';

/**
 * A "world" for the visibility walk: one record of every kind that hangs off a client, made with the route walks'
 * fixture makers, plus what those makers leave without a client or under a client of their own (tasks, projects,
 * budgets, client members, task automations) moved under the world's client, a note on the project and files on
 * both notes, and a project and a task of `person` without a client. The hidden world's clients have the owner as their person,
 * so a plain member's personal key must see none of it; the visible world's have the member.
 */

/** Path parameter -> the table its records live in: the kinds of record that hang off a client. */
export const CLIENT_RECORDS = {
  client_id: 'clients',
  contact_id: 'contacts',
  project_id: 'projects',
  task_id: 'tasks',
  task_relation_id: 'task_relations',
  client_member_id: 'client_members',
  time_entry_id: 'time_entries',
  reclaim_id: 'reclaims',
  contract_id: 'contracts',
  contract_row_id: 'contract_rows',
  invoice_id: 'invoices',
  invoice_row_id: 'invoice_rows',
  budget_id: 'budgets',
  monitor_id: 'monitors',
  note_id: 'notes',
  folder_id: 'folders',
  document_id: 'documents',
  digitization_id: 'digitizations',
  attachment_id: 'attachments',
  task_automation_id: 'task_automations',
} as const;
export type RecordParam = keyof typeof CLIENT_RECORDS;
export const RECORD_PARAMS = Object.keys(CLIENT_RECORDS) as RecordParam[];

export interface World {
  /** The fixture makers' record per path parameter (what a route's path is filled with). */
  made: Record<string, number | string>;
  /** Every record of the world, by the path parameter that names its kind. */
  ids: Record<RecordParam, number[]>;
}

async function highWater(t: TestApp): Promise<Record<RecordParam, number>> {
  const marks = {} as Record<RecordParam, number>;
  for (const param of RECORD_PARAMS) {
    const row = await t.db.db
      .selectFrom(CLIENT_RECORDS[param])
      .select((eb) => eb.fn.max<number>('id' as never).as('max'))
      .executeTakeFirst();
    marks[param] = Number(row?.max ?? 0);
  }
  return marks;
}

/** Records of a table made after a high-water mark: the world's own. */
async function idsAfter(t: TestApp, tenant: TenantFixture, param: RecordParam, after: number): Promise<number[]> {
  const rows = await t.db.db
    .selectFrom(CLIENT_RECORDS[param])
    .select('id' as never)
    .where('company_id' as never, '=', tenant.companyId as never)
    .where('id' as never, '>', after as never)
    .orderBy('id' as never)
    .execute();
  return rows.map((r) => Number((r as { id: number }).id));
}

/**
 * Records whose own rule decides, not a client: a project without a client that `person` manages, and a task
 * without a client assigned to `person` (the member sees them in the visible world, not in the hidden one).
 */
async function ownRuleRecords(t: TestApp, tenant: TenantFixture, person: number, made: Record<string, unknown>) {
  const db = t.db.db;
  const project = await db
    .selectFrom('projects')
    .select('project_type_id')
    .where('id', '=', Number(made.project_id))
    .executeTakeFirstOrThrow();
  await db
    .insertInto('projects')
    .values({ company_id: tenant.companyId, name: 'World own project', manager_id: person, ...project })
    .execute();
  const task = await db
    .insertInto('tasks')
    .values({ company_id: tenant.companyId, title: 'World own task' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('task_assignees')
    .values({ company_id: tenant.companyId, task_id: task.id, person_id: person })
    .execute();
}

/**
 * Makes a world for `person` (the person of its clients and time entries). `params`: the fixture parameters to
 * make besides the client records (the visible world fills every route's parameters).
 */
export async function makeWorld(
  t: TestApp,
  tenant: TenantFixture,
  person: number,
  params: Iterable<string> = [],
): Promise<World> {
  const before = await highWater(t);
  const made = await makeFixtures(t, { ...tenant, memberPersonId: person }, new Set([...RECORD_PARAMS, ...params]));
  const client = Number(made.client_id);
  const db = t.db.db;
  const moved = {
    tasks: 'task_id',
    projects: 'project_id',
    budgets: 'budget_id',
    client_members: 'client_member_id',
    task_automations: 'task_automation_id',
  };
  for (const [table, param] of Object.entries(moved) as Array<[keyof typeof moved, RecordParam]>)
    await db
      .updateTable(table)
      .set({ client_id: client })
      .where('company_id', '=', tenant.companyId)
      .where('id', '>', before[param])
      .execute();
  await ownRuleRecords(t, tenant, person, made);
  const note = await db
    .insertInto('notes')
    .values({
      company_id: tenant.companyId,
      related_type: 'project',
      related_id: Number(made.project_id),
      comments: '<p>World project note</p>',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const noteId of [Number(made.note_id), note.id])
    await db
      .insertInto('attachments')
      .values({
        company_id: tenant.companyId,
        related_type: 'note',
        related_id: noteId,
        file_name: 'world-note.pdf',
        content_type: 'application/pdf',
        size: 4,
        sha256: '1'.repeat(64),
      })
      .execute();
  const ids = {} as Record<RecordParam, number[]>;
  for (const param of RECORD_PARAMS) ids[param] = await idsAfter(t, tenant, param, before[param]);
  return { made, ids };
}

/** Every row of the world's records, to prove a walk changed none of them. */
export async function snapshot(t: TestApp, world: World): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const param of RECORD_PARAMS)
    out[param] = await t.db.db
      .selectFrom(CLIENT_RECORDS[param])
      .selectAll()
      .where('id' as never, 'in', world.ids[param] as never)
      .orderBy('id' as never)
      .execute();
  return out;
}

/** Fields that name a record of another kind than their name says. */
const ALIASES: Record<string, RecordParam> = {
  depends_on_id: 'task_id',
  source_task_id: 'task_id',
  target_task_id: 'task_id',
  master_task_id: 'task_id',
  original_client_id: 'client_id',
};

/** The kind of record a field names, if it names one of the world's kinds (`client_ids` names clients). */
function kindOf(field: string, holder: Record<string, unknown>): RecordParam | undefined {
  if (field === 'related_id' || field === 'record_id') {
    const type = holder.related_type ?? holder.entity;
    return typeof type === 'string' && `${type}_id` in CLIENT_RECORDS ? (`${type}_id` as RecordParam) : undefined;
  }
  if (field in ALIASES) return ALIASES[field];
  const single = field.endsWith('_ids') ? field.slice(0, -1) : field;
  return single in CLIENT_RECORDS ? (single as RecordParam) : undefined;
}

/**
 * Where in a JSON answer a record of the world shows: a field naming one (client_id, related_id with its
 * related_type, task_ids...), or the id of a row of `kind` (the list's or the read's own records).
 */
export function sightings(body: unknown, world: World, kind?: RecordParam, path = '$'): string[] {
  const found: string[] = [];
  const has = (param: RecordParam, value: unknown) => typeof value === 'number' && world.ids[param].includes(value);
  if (Array.isArray(body)) body.forEach((item, i) => found.push(...sightings(item, world, kind, `${path}[${i}]`)));
  if (!body || typeof body !== 'object' || Array.isArray(body)) return found;
  const holder = body as Record<string, unknown>;
  // A search result names its kind: {type: 'task', id}.
  const typed = typeof holder.type === 'string' ? kindOf(`${holder.type}_id`, holder) : undefined;
  for (const [field, value] of Object.entries(holder)) {
    const named = kindOf(field, holder);
    const values = Array.isArray(value) ? value : [value];
    if (named && values.some((v) => has(named, v))) found.push(`${path}.${field}=${JSON.stringify(value)}`);
    else if (field === 'id' && (kind ?? typed) && has((kind ?? typed)!, value))
      found.push(`${path}.id=${String(value)} (${kind ?? typed})`);
    else if (value && typeof value === 'object') found.push(...sightings(value, world, undefined, `${path}.${field}`));
  }
  return found;
}
