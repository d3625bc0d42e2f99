import type { DelegationListParams } from './delegations.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReference } from '../../platform/references.ts';
import type { DelegationCreateBody, DelegationRecord, DelegationUpdateBody } from './delegations.schemas.ts';
import * as repo from './delegations.repository.ts';

type Locked = { id: number; delegator_id: number; delegate_id: number; date_from: string; date_until: string };
const target = {
  what: 'Delegation',
  lock: repo.delegations.lock as (ctx: Ctx, id: number) => Promise<Locked | undefined>,
  read: repo.findDelegation,
};

export const listDelegations = (ctx: Ctx, params: DelegationListParams) => repo.listDelegations(ctx, params);

export async function getDelegation(ctx: Ctx, id: number): Promise<DelegationRecord> {
  return orNotFound(await repo.findDelegation(ctx, id), 'Delegation');
}

/** Rules on the delegation as it will be stored (create: the body; PATCH: merged with the row). */
function assertConsistent(state: Omit<Locked, 'id'>): void {
  if (state.delegator_id === state.delegate_id)
    throw domainValidation('SAME_PERSON', 'A person cannot delegate to themselves', { field: 'delegate_id' });
  // YYYY-MM-DD compares correctly as text.
  if (state.date_until < state.date_from)
    throw domainValidation('INVALID_DATE_RANGE', 'date_until must not be before date_from', {
      field: 'date_until',
      date_from: state.date_from,
      date_until: state.date_until,
    });
}

async function checkPeople(ctx: Ctx, body: DelegationUpdateBody): Promise<void> {
  await assertReference(ctx, 'people', 'person', 'delegator_id', body.delegator_id);
  await assertReference(ctx, 'people', 'person', 'delegate_id', body.delegate_id);
}

export async function createDelegation(ctx: Ctx, body: DelegationCreateBody): Promise<DelegationRecord> {
  return inTransaction(ctx, async (tx) => {
    assertConsistent(body);
    await checkPeople(tx, body);
    const id = await repo.delegations.insert(tx, {
      delegator_id: body.delegator_id,
      delegate_id: body.delegate_id,
      date_from: body.date_from,
      date_until: body.date_until,
      scope: body.scope ?? 'tasks',
      note: body.note ?? null,
    });
    return getDelegation(tx, id);
  });
}

export const updateDelegation = (ctx: Ctx, id: number, body: DelegationUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, locked) => {
    assertConsistent({ ...locked, ...body } as Omit<Locked, 'id'>);
    await checkPeople(tx, body);
    await repo.delegations.update(tx, id, body);
  });

export const deleteDelegation = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.delegations.softDelete(tx, id));
