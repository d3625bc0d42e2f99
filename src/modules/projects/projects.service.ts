import type { Ctx } from '../../platform/context.ts';
import { assertCustomFieldValues } from '../custom-fields/index.ts';
import { clientManageable } from '../clients/index.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, invalidReference } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { customFieldsInput } from '../../platform/fields.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReference, lockLive } from '../../platform/references.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import {
  TRANSITIONS,
  type ProjectCreateBody,
  type ProjectListParams,
  type ProjectRecord,
  type ProjectUpdateBody,
  type StatusAction,
} from './projects.schemas.ts';
import * as repo from './projects.repository.ts';
import type { LockedProject } from './projects.repository.ts';

type ProjectInput = ProjectCreateBody | ProjectUpdateBody;

const target = { what: 'Project', lock: repo.lockProject };

function columnsFrom(body: ProjectInput): RowChanges<'projects'> {
  const {
    fields: _f,
    custom_fields: _c,
    client_id: _client,
    status_action: _action,
    ...columns
  } = body as ProjectUpdateBody;
  const custom = customFieldsInput(body);
  if (custom.both)
    throw new AppError('VALIDATION_ERROR', 'Send custom_fields or its alias fields, not both', {
      reason: 'DUPLICATE_ALIAS',
      field: 'custom_fields',
    });
  return custom.present ? { ...columns, custom_fields: custom.value } : columns;
}

async function checkReferences(ctx: Ctx, body: ProjectInput): Promise<void> {
  await assertCustomFieldValues(ctx, 'project', body);
  await assertReference(ctx, 'project_types', 'project_type', 'project_type_id', body.project_type_id);
  await assertReference(ctx, 'people', 'person', 'manager_id', body.manager_id);
}

/** The client must be live and, for a plain member, one they see (the manage-client right). */
async function requireClient(ctx: Ctx, clientId: number): Promise<void> {
  if (!(await lockLive(ctx, 'clients', clientId))) throw invalidReference('client', 'client_id', clientId);
}

/** The row as written, even when the write took it out of a plain member's sight (e.g. a new manager). */
async function readBack(ctx: Ctx, id: number): Promise<ProjectRecord> {
  return (await repo.findProject({ ...ctx, actor: { ...ctx.actor, restricted: false } }, id))!;
}

function transition(
  current: LockedProject,
  action: StatusAction,
): Pick<RowChanges<'projects'>, 'status' | 'archived_from'> {
  const rule = TRANSITIONS[action];
  if (!rule.from.some((status) => status === current.status)) {
    throw new AppError('INVALID_STATUS_TRANSITION', `Cannot ${action} a project that is ${current.status}`, {
      from: current.status,
      action,
    });
  }
  // archive is accepted from active and cancelled only, the statuses archived_from can hold.
  if (action === 'archive') return { status: 'archived', archived_from: current.status as 'active' | 'cancelled' };
  if (action === 'unarchive') return { status: current.archived_from ?? 'active', archived_from: null };
  return { status: rule.to!, archived_from: null };
}

export const listProjects = (ctx: Ctx, params: ProjectListParams) => repo.listProjects(ctx, params);

export async function getProject(ctx: Ctx, id: number): Promise<ProjectRecord> {
  return orNotFound(await repo.findProject(ctx, id), 'Project');
}

export async function createProject(ctx: Ctx, body: ProjectCreateBody): Promise<ProjectRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkReferences(tx, body);
    if (body.client_id != null) await requireClient(tx, body.client_id);
    const columns = {
      ...columnsFrom(body),
      name: body.name ?? (await repo.defaultName(tx, body.project_type_id)),
      project_type_id: body.project_type_id,
      client_id: body.client_id ?? null,
    };
    // A plain member keeps sight of what they create: with no manager given, they manage it.
    if (tx.actor.restricted && columns.manager_id == null) columns.manager_id = tx.actor.personId;
    const id = await repo.projects.insert(tx, columns);
    const project = await readBack(tx, id);
    await recordEvent(tx, 'project', 'created', project);
    return project;
  });
}

/**
 * Moves the project's tasks to another client. All or nothing: one task the actor cannot see
 * refuses the whole move, so no task is left behind under the old client.
 */
async function moveToClient(ctx: Ctx, current: LockedProject, clientId: number): Promise<void> {
  if (current.client_id !== null && !(await clientManageable(ctx, current.client_id))) {
    throw new AppError('FORBIDDEN', 'Moving this project needs the manage-client right on its current client', {
      reason: 'CLIENT_NOT_MANAGEABLE',
      client_id: current.client_id,
    });
  }
  await requireClient(ctx, clientId);
  const stranded = await repo.countHiddenTasks(ctx, current.id);
  if (stranded > 0) {
    throw new AppError(
      'PARTIAL_REPARENT_REFUSED',
      `${stranded} task(s) of this project are not visible to you; the project was not moved`,
      { stranded_tasks: stranded },
    );
  }
  for (const task of await repo.moveTasks(ctx, current.id, clientId)) await recordEvent(ctx, 'task', 'updated', task);
}

// Not mutate(): the record read back after the change is also the event's, so it is read once.
export async function updateProject(ctx: Ctx, id: number, body: ProjectUpdateBody): Promise<ProjectRecord> {
  return inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.lockProject(tx, id), 'Project');
    // Re-sending the current client is not a move: it writes nothing and fires nothing.
    const { client_id: clientId, ...rest } = body;
    const moving = clientId !== undefined && clientId !== current.client_id;
    if (!moving && Object.keys(rest).length === 0) return readBack(tx, id);
    const columns = columnsFrom(rest);
    if (body.status_action) Object.assign(columns, transition(current, body.status_action));
    await checkReferences(tx, rest);
    if (moving) {
      await moveToClient(tx, current, clientId);
      columns.client_id = clientId;
    }
    await repo.projects.update(tx, id, columns);
    const project = await readBack(tx, id);
    await recordEvent(tx, 'project', 'updated', project);
    return project;
  });
}

export const deleteProject = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx) => {
    await repo.projects.softDelete(tx, id);
    await recordEvent(tx, 'project', 'deleted', { id });
  });
