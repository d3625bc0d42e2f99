import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import type { Ctx } from '../../platform/context.ts';
import { tooMany } from '../../platform/ratelimit.ts';

/** The start of the current fixed window, on the database clock (every instance agrees on it). */
const windowStart = (seconds: number) =>
  sql<string>`to_timestamp(floor(extract(epoch from now()) / ${seconds}::int) * ${seconds}::int)`;

/**
 * Counts `mails` client e-mails against the company's quota (SVC_CLIENT_MAIL_QUOTA per SVC_CLIENT_MAIL_WINDOW), in
 * the sending request's transaction: one upsert on the company's row, whose lock orders concurrent senders on every
 * instance, and whose count a rollback gives back. Past the quota: 429 RATE_LIMIT_EXCEEDED, Retry-After the end of
 * the window. (A request asking more than the whole quota can never go; the quota should be at least the cap of 50.)
 */
export async function countClientMails(ctx: Ctx, quota: Config['clientMailQuota'], mails: number): Promise<void> {
  if (quota.mails === 0) return;
  const start = windowStart(quota.windowSeconds);
  // A transaction that began just before a window turned may count after one that began after it: it counts into
  // the newer window (>=), which never lets the row go back to an older one.
  // tenant: deliberate SQL (the upsert's WHERE is the check; a refused count inserts and changes nothing)
  const taken = await sql<{ mails: number }>`insert into client_mail_quota as q (company_id, window_start, mails)
      select ${ctx.companyId}::uuid, ${start}, ${mails}::int where ${mails}::int <= ${quota.mails}::int
    on conflict (company_id) do update set window_start = greatest(q.window_start, excluded.window_start),
      mails = case when q.window_start >= excluded.window_start then q.mails else 0 end + excluded.mails
    where case when q.window_start >= excluded.window_start then q.mails else 0 end + excluded.mails <= ${quota.mails}::int
    returning mails`.execute(ctx.db);
  if (taken.rows.length > 0) return;
  // tenant: deliberate SQL
  const state = await sql<{ used: number; ms: number }>`select coalesce(q.mails, 0) as used,
      ceil(extract(epoch from greatest(q.window_start, ${start}) + ${quota.windowSeconds}::int * interval '1 second'
        - now()) * 1000)::int as ms
    from (select 1) one left join client_mail_quota q
      on q.company_id = ${ctx.companyId}::uuid and q.window_start >= ${start}`.execute(ctx.db);
  const { used, ms } = state.rows[0]!;
  throw tooMany(
    ms,
    `This company may send ${quota.mails} client e-mails per ${quota.windowSeconds} s: ${used} sent in this window, ${mails} more asked`,
    { limit: quota.mails, window_seconds: quota.windowSeconds, used, requested: mails },
  );
}
