// What a backup copies, read from the database's own catalog: it needs no list of the modules' tables, so a
// new table is backed up the day its migration lands.
import type pg from 'pg';
import type { Header, TableInfo } from './format.ts';

/** The migrations' own bookkeeping: rebuilt by the restore's migrate, carried in the header instead. */
const MIGRATIONS_TABLE = 'schema_migrations';

export async function appliedMigrations(client: pg.Client): Promise<Header['schema']['migrations']> {
  const { rows } = await client.query<{ name: string; applied_at: string }>(
    `select name, applied_at::text as applied_at from ${MIGRATIONS_TABLE} order by name`,
  );
  return rows;
}

/** Whether the database has any schema of ours at all (an empty one has not even the migrations table). */
export async function hasMigrationsTable(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query(`select 1 from pg_tables where schemaname = 'public' and tablename = $1`, [
    MIGRATIONS_TABLE,
  ]);
  return rows.length > 0;
}

/** The tables of the public schema with their stored columns, in foreign-key order. */
export async function listTables(client: pg.Client): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `select c.relname as name, array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where c.relkind = 'r' and c.relname <> $1
      group by c.relname order by c.relname`,
    [MIGRATIONS_TABLE],
  );
  const edges = await client.query<{ child: string; parent: string }>(
    `select ch.relname as child, pa.relname as parent
       from pg_constraint f
       join pg_class ch on ch.oid = f.conrelid
       join pg_class pa on pa.oid = f.confrelid
      where f.contype = 'f' and f.conrelid <> f.confrelid`,
  );
  return foreignKeyOrder(rows, edges.rows);
}

/** Parents before children (a table referencing itself is fine: COPY checks its rows at the end of the statement). */
export function foreignKeyOrder(tables: TableInfo[], edges: Array<{ child: string; parent: string }>): TableInfo[] {
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of edges) parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]) => {
    if (state.get(name) === 'done' || !byName.has(name)) return;
    if (state.get(name) === 'visiting')
      throw new Error(
        `tables reference each other in a loop (${[...trail, name].join(' -> ')}); backup needs an order`,
      );
    state.set(name, 'visiting');
    for (const parent of [...(parents.get(name) ?? [])].sort()) visit(parent, [...trail, name]);
    state.set(name, 'done');
    ordered.push(byName.get(name)!);
  };
  for (const table of tables) visit(table.name, []);
  return ordered;
}

/** Sequences that have handed out a value; reading them after the snapshot gives a value at least that high. */
export async function usedSequences(client: pg.Client): Promise<Header['sequences']> {
  const { rows } = await client.query<{ name: string; last_value: string }>(
    `select sequencename as name, last_value::text as last_value from pg_sequences
      where schemaname = 'public' and last_value is not null order by sequencename`,
  );
  return rows;
}

/** The tables (of those given) that have at least one row. */
export async function tablesWithRows(client: pg.Client, tables: readonly string[]): Promise<string[]> {
  const present = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' and tablename = any($1::text[])`,
    [tables],
  );
  const found: string[] = [];
  for (const { name } of present.rows) {
    const { rows } = await client.query(`select 1 from ${client.escapeIdentifier(name)} limit 1`);
    if (rows.length) found.push(name);
  }
  return found.sort();
}

export const quoteColumns = (client: pg.Client, columns: readonly string[]) =>
  columns.map((c) => client.escapeIdentifier(c)).join(', ');
