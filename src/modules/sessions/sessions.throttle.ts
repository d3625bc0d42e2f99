import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';

/**
 * Attempt counters of the anonymous auth routes (docs/decisions/0051), in PostgreSQL so every instance counts the
 * same attempts: fixed windows per bucket, counted before the work (the hash) is done, so that a burst of parallel
 * guesses cannot all pass a check made before any of them was counted.
 */
export const WINDOW_MINUTES = 15;
/** Failed sign-ins (and wrong current passwords) per account e-mail, then locked for the window's remainder. */
export const SIGN_IN_PER_ACCOUNT = 5;
/** Failed sign-ins per client address, whatever the accounts tried. */
export const SIGN_IN_PER_ADDRESS = 20;
/** Password-reset requests per e-mail address and per client address. */
export const RESETS_PER_EMAIL = 3;
export const RESETS_PER_ADDRESS = 10;

export interface Bucket {
  name: string;
  max: number;
}

export const accountBucket = (email: string): Bucket => ({
  name: `sign-in:account:${email.trim().toLowerCase()}`,
  max: SIGN_IN_PER_ACCOUNT,
});
export const addressBucket = (address: string): Bucket => ({
  name: `sign-in:address:${address}`,
  max: SIGN_IN_PER_ADDRESS,
});
export const resetBuckets = (email: string, address: string): Bucket[] => [
  { name: `reset:email:${email.trim().toLowerCase()}`, max: RESETS_PER_EMAIL },
  { name: `reset:address:${address}`, max: RESETS_PER_ADDRESS },
];

const tooMany = (retryAfter: number, message: string) =>
  new AppError('RATE_LIMIT_EXCEEDED', message, { retry_after: retryAfter }, { 'Retry-After': String(retryAfter) });

/** Gives back attempts counted for nothing (refused, or a sign-in that succeeded). */
export async function uncount(db: Executor, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await db
    .updateTable('auth_throttle')
    .set({ attempts: sql`greatest(attempts - 1, 0)` })
    .where('bucket', 'in', names)
    .execute();
}

/**
 * Counts one attempt in every bucket (a new window for a bucket whose window is over); 429 with Retry-After, the
 * attempt given back, when any bucket has used its allowance. Buckets are written in name order, so two requests
 * never wait for each other's rows the other way round.
 */
export async function countAttempt(db: Db, buckets: Bucket[], message: string): Promise<void> {
  const sorted = [...buckets].sort((a, b) => a.name.localeCompare(b.name));
  const window = sql<string>`date_trunc('milliseconds', now()) + make_interval(mins => ${WINDOW_MINUTES})`;
  const rows = await db
    .insertInto('auth_throttle')
    .values(sorted.map((b) => ({ bucket: b.name, attempts: 1, window_ends_at: window })))
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        attempts: sql`case when auth_throttle.window_ends_at <= now() then 1 else auth_throttle.attempts + 1 end`,
        window_ends_at: sql`case when auth_throttle.window_ends_at <= now() then excluded.window_ends_at
          else auth_throttle.window_ends_at end`,
      }),
    )
    .returning([
      'bucket',
      'attempts',
      sql<number>`greatest(1, ceil(extract(epoch from auth_throttle.window_ends_at - now())))::int`.as('retry_after'),
    ])
    .execute();
  const over = rows.filter((row) => row.attempts > sorted.find((b) => b.name === row.bucket)!.max);
  if (over.length === 0) return;
  await uncount(
    db,
    rows.map((row) => row.bucket),
  );
  throw tooMany(Math.max(...over.map((row) => row.retry_after)), message);
}

/** A successful sign-in (or password reset) starts the account's count afresh. */
export async function clearBucket(db: Executor, bucket: Bucket): Promise<void> {
  await db.deleteFrom('auth_throttle').where('bucket', '=', bucket.name).execute();
}

/** Windows that are over count nothing any more. */
export async function sweepThrottle(db: Executor): Promise<number> {
  const result = await db
    .deleteFrom('auth_throttle')
    .where('window_ends_at', '<=', sql<string>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
