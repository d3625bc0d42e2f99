import { sql, type RawBuilder } from 'kysely';

/*
 * Records built as JSON in SQL, in one round trip: row_to_json / json_agg of a select list (faster than
 * json_build_object, and compact). A read route can answer the text as PostgreSQL sends it, with no row
 * parsed into objects and serialized again in Node (docs/decisions/0044). The field list is written in
 * the order of the record's schema, so the answer reads the same as a serialized one.
 */

/** A column of the row, or [name, SQL expression]; `$.` in an expression stands for the row's alias. */
export type Field = string | [name: string, expression: string];

/** numeric → JSON number without trailing zeros (120.00 → 120, 1.5000 → 1.5), exactly as stored. */
export const numbers = (columns: readonly string[]): Field[] => columns.map((c) => [c, `trim_scale($.${c})`]);

/** A timestamptz in the API's form: ISO 8601 UTC with milliseconds and a Z. */
export const iso = (column: string): Field => [
  column,
  `to_char($.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
];

export const selectList = (fields: readonly Field[], alias: string): string =>
  fields
    .map((f) => (typeof f === 'string' ? `$.${f}` : `${f[1]} as ${f[0]}`))
    .join(', ')
    .replaceAll('$.', `${alias}.`);

/** The record's SQL text, `alias` naming the outer row (the benchmark's floor runs exactly this). */
export const recordSql = (fields: readonly Field[], alias: string): string =>
  `(select row_to_json(h) from (select ${selectList(fields, alias)}) h)`;

/** The record as a json value (pg parses it into an object). */
export const recordOf = <T>(fields: readonly Field[], alias: string) =>
  sql.raw(recordSql(fields, alias)) as RawBuilder<T>;

/** The record as JSON text, to be sent as it is. */
export const recordText = (fields: readonly Field[], alias: string) =>
  sql.raw(`${recordSql(fields, alias)}::text`) as RawBuilder<string>;
