import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { scoped } from '../../platform/tenant-table.ts';
import type { LegacyEvent, LegacySubscriptionRecord } from './legacy-webhooks.schemas.ts';

/** The spec's legacy token lifetime. */
export const TOKEN_TTL_SECONDS = 600;
const TOKEN_PREFIX = 'svc_v1t_';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** API v1.0 is authenticated by API keys only (their key pair, then tokens): never by a web session. */
function keyIdOf(ctx: Ctx): number {
  if (ctx.key.id === null) throw new AppError('UNAUTHORIZED', 'API v1.0 needs the key pair of an API key');
  return ctx.key.id;
}

/** Exchanges the key the caller authenticated with for a ten-minute token (expired ones of the company go). */
export async function issueToken(ctx: Ctx) {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  await scoped
    .delete(ctx, 'legacy_tokens')
    .where('expires_at', '<', sql<string>`now()`)
    .execute();
  const row = await ctx.db
    .insertInto('legacy_tokens')
    .values({
      token_hash: tokenHash(token),
      company_id: ctx.companyId,
      api_key_id: keyIdOf(ctx),
      expires_at: sql<string>`date_trunc('milliseconds', now()) + make_interval(secs => ${TOKEN_TTL_SECONDS})`,
    })
    .returning(sql<string>`to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('expires_at'))
    .executeTakeFirstOrThrow();
  return { token, token_type: 'Bearer' as const, expires_in: TOKEN_TTL_SECONDS, expires_at: row.expires_at };
}

/** The company and key a live token stands for; 401 for anything else (never says which part was wrong). */
export async function resolveToken(db: Db, token: string): Promise<{ companyId: string; keyId: number }> {
  const row = token.startsWith(TOKEN_PREFIX)
    ? await db
        .selectFrom('legacy_tokens')
        .select(['company_id', 'api_key_id'])
        .where('token_hash', '=', tokenHash(token))
        .where('expires_at', '>', sql<string>`now()`)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new AppError('UNAUTHORIZED', 'The token is not valid or has expired; exchange the key pair again');
  return { companyId: row.company_id, keyId: row.api_key_id };
}

const columns = [
  's.id',
  's.webhook',
  's.url',
  sql<string>`to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('created_at'),
] as const;

export async function listSubscriptions(ctx: Ctx): Promise<LegacySubscriptionRecord[]> {
  return (await scoped
    .select(ctx, 'legacy_webhook_subscriptions', 's')
    .select(columns)
    .orderBy('s.id')
    .execute()) as LegacySubscriptionRecord[];
}

/** A private or unreachable URL is accepted here, as the spec says; only its form is checked. */
export async function subscribe(
  ctx: Ctx,
  body: { webhook: LegacyEvent; url: string },
): Promise<LegacySubscriptionRecord> {
  let parsed: URL | undefined;
  try {
    parsed = new URL(body.url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.username || parsed.password)
    throw new AppError('VALIDATION_ERROR', 'Field url must be an http or https URL without credentials', {
      errors: [{ field: 'url', message: 'must be an http or https URL without credentials' }],
    });
  const { id } = await scoped
    .insert(ctx, 'legacy_webhook_subscriptions', [{ webhook: body.webhook, url: body.url, api_key_id: keyIdOf(ctx) }])
    .returning('id')
    .executeTakeFirstOrThrow();
  const [created] = (await scoped
    .select(ctx, 'legacy_webhook_subscriptions', 's')
    .select(columns)
    .where('s.id', '=', id)
    .execute()) as LegacySubscriptionRecord[];
  return created!;
}

/** No history is kept: the subscription row goes. */
export async function unsubscribe(ctx: Ctx, id: number): Promise<void> {
  const gone = await scoped.delete(ctx, 'legacy_webhook_subscriptions').where('id', '=', id).executeTakeFirst();
  if (gone.numDeletedRows === 0n) throw notFound('Subscription');
}
