import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';

/**
 * The next updated_at: now to the millisecond, and always later than the previous value,
 * so the ETag derived from it changes on every write even within one millisecond.
 */
export const nextStamp = (column = 'updated_at'): RawBuilder<string> =>
  sql<string>`greatest(date_trunc('milliseconds', clock_timestamp()), ${sql.ref(column)} + interval '1 millisecond')`;

export const nowStamp = (): RawBuilder<string> => sql<string>`date_trunc('milliseconds', clock_timestamp())`;

/** A timestamptz as the API's ISO 8601 UTC text, for JSON built in SQL. */
export const isoz = (column: string): RawBuilder<string> =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * "Name Surname <e-mail>" of a row with name, surname and email (a contact, a person), leaving out whatever part is
 * missing; null when nothing is left. The one wording of a party's contact on an invoice, whoever owns the row.
 */
export const nameAndEmail = (alias: string): RawBuilder<string | null> => {
  const email = sql.ref(`${alias}.email`);
  return sql<string | null>`nullif(trim(concat_ws(' ', ${sql.ref(`${alias}.name`)}, ${sql.ref(`${alias}.surname`)},
  case when ${email} is not null and ${email} <> '' then '<' || ${email} || '>' end)), '')`;
};

/** Escapes LIKE wildcards so a `q` search matches the text literally. */
export const likeContains = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The first row of a projection as its record type. Unlike a cast, the selected row must match the record:
 * a renamed or dropped column fails to compile.
 */
export const firstRecord = <R>(query: { executeTakeFirst(): Promise<R | undefined> }): Promise<R | undefined> =>
  query.executeTakeFirst();

/** How many rows, and the first ids by id: capped, so a summary stays small whatever the company's size. */
export interface CappedIds {
  count: number;
  ids: number[];
  ids_truncated: boolean;
}

/** The count and the first `cap` ids of the rows of a query aliased `x`, in one statement (a window count). */
export async function cappedIds(query: SelectQueryBuilder<any, 'x', object>, cap: number): Promise<CappedIds> {
  const rows: Array<{ id: number; total: number | string }> = await query
    .select(['x.id', sql<number>`count(*) over ()`.as('total')])
    .orderBy('x.id')
    .limit(cap)
    .execute();
  const count = Number(rows[0]?.total ?? 0);
  return { count, ids: rows.map((r) => r.id), ids_truncated: count > rows.length };
}
