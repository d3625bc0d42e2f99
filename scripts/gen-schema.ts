// Writes src/db/schema.ts (Kysely's table types) from a migrated database's catalog, so the types cannot drift
// from the migrations. scripts/test.ts regenerates it from each run's template and fails when the file is stale.
//   node scripts/gen-schema.ts [url]          print the text (url: a migrated database; default: a fresh one)
//   node scripts/gen-schema.ts --write [url]  write src/db/schema.ts (npm run db:schema)
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { admin, createMigrated, dropDatabases, startServer, withDatabase } from './pg-server.ts';

export const SCHEMA_FILE = path.join(import.meta.dirname, '..', 'src', 'db', 'schema.ts');
/** migrate.ts's own bookkeeping, not an application table. */
const EXCLUDED_TABLES = new Set(['schema_migrations']);
/** Unions that code imports by name; the column's CHECK list is emitted under this name. */
const NAMED_UNIONS: Record<string, string> = {
  AttemptStatus: 'webhook_attempts.status',
  DeliveryState: 'webhook_deliveries.state',
};
/**
 * Read types the catalog cannot tell, kept from the hand-written file so the code compiles unchanged.
 * The text columns are CHECK-restricted, but their modules still filter and write them as plain strings
 * (list filters from the query string): drop an entry once its module uses the union. A json(b) entry
 * replaces only the read type.
 */
const READ_TYPES: Record<string, string> = {
  'clients.status': 'string',
  // json arrays (a CHECK or the module's writes keep them arrays): the option names, the template tree's nodes
  'custom_fields.options': 'string[]',
  'folder_templates.folders': 'unknown[]',
  'members.role': 'string',
  'members.status': 'string',
  'tasks.recurrence_rule': 'unknown',
  'tasks.status': 'string',
  'tasks.type': 'string',
  'topics.status': 'string',
};

export interface CatalogColumn {
  table: string;
  column: string;
  /** The element type for arrays, the base type for domains (pg_type.typname). */
  type: string;
  isArray: boolean;
  notNull: boolean;
  /** A default, identity or generated column: optional on insert. */
  hasDefault: boolean;
  /** Labels of an enum type, else null. */
  enumLabels: string[] | null;
  /** What quote_ident gives, as the column appears in a constraint definition. */
  quoted: string;
  /** pg_get_constraintdef of the CHECK constraints on this column alone. */
  checks: string[];
}

// One round trip: columns with their resolved types and single-column CHECK constraints.
const CATALOG_SQL = `
select c.relname as "table", a.attname as "column", b.typname as "type", t.typcategory = 'A' as "isArray",
  (a.attnotnull or coalesce(e.typnotnull, false)) as "notNull",
  (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as "hasDefault",
  (select array_agg(l.enumlabel::text order by l.enumsortorder) from pg_enum l where l.enumtypid = b.oid) as "enumLabels",
  quote_ident(a.attname) as "quoted",
  array(select pg_get_constraintdef(k.oid) from pg_constraint k
        where k.conrelid = c.oid and k.contype = 'c' and k.conkey = array[a.attnum] order by k.conname) as "checks"
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
join pg_type t on t.oid = a.atttypid
join pg_type e on e.oid = case when t.typcategory = 'A' then t.typelem else t.oid end
join pg_type b on b.oid = case when e.typtype = 'd' then e.typbasetype else e.oid end
where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
order by c.relname collate "C", a.attnum`;

export async function readCatalog(url: string): Promise<CatalogColumn[]> {
  return admin(url, async (client) =>
    (await client.query<CatalogColumn>(CATALOG_SQL)).rows.filter((r) => !EXCLUDED_TABLES.has(r.table)),
  );
}

const LITERAL = /'((?:[^']|'')*)'::(?:text|character varying|bpchar)/g;

/**
 * The values of `col IN ('a', 'b')` / `col = 'a'`, which PostgreSQL prints as
 * `CHECK ((col = ANY (ARRAY['a'::text, 'b'::text])))` or `CHECK ((col = 'a'::text))` (varchar adds casts).
 * Anything else is null: the column keeps its base type.
 */
export function checkValues(def: string, quoted: string): string[] | null {
  const values: string[] = [];
  const shape = def
    .replace(LITERAL, (_m, value: string) => {
      values.push(value.replaceAll("''", "'"));
      return '\u0000';
    })
    .replace(/::(?:text|character varying|bpchar)(?:\[\])?/g, '')
    .replace(/[()\s]/g, '');
  const col = quoted.replace(/[()\s]/g, '');
  const ok =
    shape === `CHECK${col}=\u0000` ||
    new RegExp(`^CHECK${escapeRegExp(col)}=ANYARRAY\\[\u0000(?:,\u0000)*\\]$`).test(shape);
  return ok && values.length > 0 ? values : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Several parseable CHECKs on one column all hold: keep the values every one allows. */
function allowedValues(col: CatalogColumn): string[] | null {
  let allowed: string[] | null = null;
  for (const def of col.checks) {
    const values = checkValues(def, col.quoted);
    if (values) allowed = allowed ? allowed.filter((v) => values.includes(v)) : values;
  }
  return allowed;
}

// How node-postgres hands each type to the code (with the parsers database.ts installs); unlisted types arrive as text.
const SCALARS: Record<string, string> = {
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  oid: 'number',
  bool: 'boolean',
  bytea: 'Buffer',
  interval: 'unknown',
  point: 'unknown',
  circle: 'unknown',
};

const literal = (value: string) => `'${value.replace(/[\\']/g, '\\$&')}'`;

/** What a read gives and what a write takes, before nullability, defaults and arrays. */
function baseTypes(col: CatalogColumn, unions: Map<string, string>): { read: string; write: string } {
  const ref = `${col.table}.${col.column}`;
  const named = unions.get(ref);
  if (named) return { read: named, write: named };
  const json = col.type === 'json' || col.type === 'jsonb';
  if (READ_TYPES[ref]) return { read: READ_TYPES[ref], write: json ? 'string' : READ_TYPES[ref] };
  const values = col.enumLabels ?? allowedValues(col);
  if (values) return { read: values.map(literal).join(' | '), write: values.map(literal).join(' | ') };
  // json(b) is written as JSON text: node-postgres would turn a JS array into a PostgreSQL array, not JSON.
  if (json) return { read: 'Json', write: 'string' };
  // numeric stays text for exact money; numbers are accepted on the way in.
  if (col.type === 'numeric') return { read: 'string', write: 'string | number' };
  const scalar = SCALARS[col.type] ?? 'string';
  return { read: scalar, write: scalar };
}

export function columnType(col: CatalogColumn, unions: Map<string, string> = new Map()): string {
  let { read, write } = baseTypes(col, unions);
  if (col.isArray) {
    read = read.includes(' ') ? `(${read})[]` : `${read}[]`;
    write = write.includes(' ') ? `(${write})[]` : `${write}[]`;
  }
  if (!col.notNull) {
    if (read !== 'unknown') read += ' | null';
    write += ' | null';
  }
  if (read === write) return col.hasDefault ? `Generated<${read}>` : read;
  return `ColumnType<${read}, ${write}${col.hasDefault ? ' | undefined' : ''}, ${write}>`;
}

const pascal = (table: string) => table.replace(/(?:^|_)([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const property = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));

function groupByTable(columns: CatalogColumn[]): Map<string, CatalogColumn[]> {
  const tables = new Map<string, CatalogColumn[]>();
  for (const col of columns) {
    tables.set(col.table, tables.get(col.table) ?? []);
    tables.get(col.table)!.push(col);
  }
  return new Map([...tables].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Named unions as `export type` lines, and the column each one stands for. */
function namedUnions(columns: CatalogColumn[]): { lines: string[]; unions: Map<string, string> } {
  const lines: string[] = [];
  const unions = new Map<string, string>();
  for (const [name, ref] of Object.entries(NAMED_UNIONS).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const col = columns.find((c) => `${c.table}.${c.column}` === ref);
    const values = col && (col.enumLabels ?? allowedValues(col));
    if (!values)
      throw new Error(
        `gen-schema: ${name} names ${ref}, which is no longer a column restricted to a list of values; update NAMED_UNIONS in scripts/gen-schema.ts`,
      );
    lines.push(`export type ${name} = ${values.map(literal).join(' | ')};`);
    unions.set(ref, name);
  }
  return { lines, unions };
}

function constList(name: string, doc: string, tables: string[]): string[] {
  return [`/** ${doc} */`, `export const ${name} = [`, ...tables.map((t) => `  ${literal(t)},`), '] as const;'];
}

/** The text of src/db/schema.ts for these catalog rows. */
export function renderSchema(columns: CatalogColumn[]): string {
  const tables = groupByTable(columns);
  const { lines: unionLines, unions } = namedUnions(columns);
  const has = (cols: CatalogColumn[], name: string, types?: string[]) =>
    cols.some((c) => c.column === name && !c.isArray && (!types || types.includes(c.type)));
  const tenant = [...tables]
    .filter(([, cols]) => has(cols, 'company_id') && has(cols, 'id', ['int2', 'int4', 'int8']))
    .map(([t]) => t);
  const soft = tenant.filter((t) => has(tables.get(t)!, 'deleted_at'));
  const body: string[] = [];
  for (const [table, cols] of tables) {
    body.push(
      '',
      `export interface ${pascal(table)}Table {`,
      ...cols.map((c) => `  ${property(c.column)}: ${columnType(c, unions)};`),
      '}',
    );
  }
  // An unused import would fail the type check (noUnusedLocals).
  const helpers = ['ColumnType', 'Generated'].filter((name) => body.some((line) => line.includes(`: ${name}<`)));
  const text = [
    '// Generated by scripts/gen-schema.ts from the migrated database: do not edit by hand.',
    '// After adding a migration, regenerate with `npm run db:schema`; `npm test` fails while this file is stale.',
    '// Reads follow the type parsers in database.ts: int8 as number, timestamps and dates as ISO text, numeric as text.',
    ...(helpers.length ? [`import type { ${helpers.join(', ')} } from 'kysely';`, ''] : []),
    '/** json/jsonb columns: parsed on read, written as JSON text. */',
    'export type Json = Record<string, unknown>;',
    '',
    ...unionLines,
    '',
    ...constList('TENANT_TABLES', 'Tables with a company_id and an integer id.', tenant),
    '',
    ...constList('SOFT_DELETED_TABLES', 'Tenant tables whose rows are soft-deleted (they have deleted_at).', soft),
    ...body,
    '',
    'export interface DB {',
    ...[...tables.keys()].map((t) => `  ${property(t)}: ${pascal(t)}Table;`),
    '}',
    '',
  ];
  return text.join('\n');
}

export async function generateSchema(url: string): Promise<string> {
  return renderSchema(await readCatalog(url));
}

/** A throw-away migrated database on TEST_DATABASE_URL's server, or on an embedded one. */
async function generateFresh(): Promise<string> {
  const server = await startServer(process.env.TEST_DATABASE_URL);
  const adminUrl = withDatabase(server.url, 'postgres');
  const name = `svc_schema_${randomBytes(4).toString('hex')}`;
  try {
    return await generateSchema(await createMigrated(server.url, name));
  } finally {
    await dropDatabases(adminUrl, [name]).catch((e) => console.error('cleanup failed:', e.message));
    await server.stop();
  }
}

async function main(args: string[]): Promise<number> {
  const write = args.includes('--write');
  const urls = args.filter((a) => a !== '--write');
  if (urls.length > 1 || urls.some((a) => a.startsWith('-'))) {
    console.error('usage: node scripts/gen-schema.ts [--write] [postgres://... of a migrated database]');
    return 2;
  }
  const text = urls[0] ? await generateSchema(urls[0]) : await generateFresh();
  if (!write) {
    process.stdout.write(text);
    return 0;
  }
  const unchanged = (await readFile(SCHEMA_FILE, 'utf8').catch(() => '')) === text;
  if (!unchanged) await writeFile(SCHEMA_FILE, text);
  console.log(unchanged ? 'src/db/schema.ts is up to date' : 'wrote src/db/schema.ts');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
