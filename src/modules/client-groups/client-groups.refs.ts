import { sql, type RawBuilder } from 'kysely';

// What a module selecting clients by group (the workflow apply) asks, inside its own statement.

/** The client aliased `alias` is in the group `groupId` (a condition correlated on the client row). */
export function inGroupSql(alias: string, groupId: number): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from client_group_links l where l.company_id = ${sql.ref(`${alias}.company_id`)}
        and l.client_id = ${sql.ref(`${alias}.id`)} and l.group_id = ${groupId})`;
}
