import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from './context.ts';

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
