import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from './errors.ts';

export type RateTier = 'read' | 'write';
const WINDOW_SECONDS = 60;
/** Wrong operator tokens one address may send per window; past it every operator request is 429 until the window ends. */
export const OPERATOR_FAILURES = 10;

/**
 * Fixed one-minute windows per key and tier (and per address at the edge), counted by
 * rate-limiter-flexible: in Redis when configured, so several instances share one count,
 * with an in-process insurance limiter should Redis fail.
 */
export class RateLimits {
  private readonly limiters: Partial<Record<RateTier | 'address', RateLimiterAbstract>> = {};
  private readonly points: Record<RateTier | 'address', number>;
  /** Failed operator-token attempts per address: always on, whatever the other limits are set to. */
  private readonly operatorFailures: RateLimiterAbstract;

  constructor(points: Record<RateTier | 'address', number>, redis?: Redis) {
    this.points = points;
    for (const name of ['read', 'write', 'address'] as const) {
      if (points[name] <= 0) continue;
      this.limiters[name] = limiter(name, points[name], redis);
    }
    this.operatorFailures = limiter('operator-failures', OPERATOR_FAILURES, redis);
  }

  /** 429 while this address has used up its failed operator-token attempts, even with the right token. */
  async refuseBlockedOperator(address: string): Promise<void> {
    const used = await this.operatorFailures.get(address).catch(() => null);
    if (used && used.consumedPoints >= OPERATOR_FAILURES) throw tooMany(used.msBeforeNext, operatorMessage);
  }

  /** Counts one wrong operator token; the attempt past the allowance is already a 429. */
  async countOperatorFailure(address: string): Promise<void> {
    const result = await this.consume(this.operatorFailures, address);
    if (result.exceeded) throw tooMany(result.msBeforeNext, operatorMessage);
  }

  /** Counts one request for this key (or member); sets the four X-RateLimit-* headers; throws 429 past the limit. */
  async consumeKey(tier: RateTier, key: string, reply: FastifyReply, who = 'API key'): Promise<void> {
    const limiter = this.limiters[tier];
    if (!limiter) return;
    const result = await this.consume(limiter, key);
    const reset = Math.ceil((Date.now() + result.msBeforeNext) / 1000);
    reply.header('X-RateLimit-Limit', String(this.points[tier]));
    reply.header('X-RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
    reply.header('X-RateLimit-Reset', String(reset));
    reply.header('X-RateLimit-Tier', tier);
    if (result.exceeded)
      throw tooMany(
        result.msBeforeNext,
        `Rate limit of ${this.points[tier]} ${tier} requests per minute exceeded for this ${who}`,
      );
  }

  /** The per-address edge ceiling, counted before anything else is looked at. */
  async consumeAddress(address: string): Promise<void> {
    const limiter = this.limiters.address;
    if (!limiter) return;
    const result = await this.consume(limiter, address);
    if (result.exceeded)
      throw tooMany(result.msBeforeNext, `More than ${this.points.address} requests per minute from this address`);
  }

  private async consume(limiter: RateLimiterAbstract, key: string) {
    try {
      const res = await limiter.consume(key);
      return { exceeded: false, remainingPoints: res.remainingPoints, msBeforeNext: res.msBeforeNext };
    } catch (error) {
      if (error instanceof RateLimiterRes)
        return { exceeded: true, remainingPoints: 0, msBeforeNext: error.msBeforeNext };
      throw error;
    }
  }
}

const operatorMessage = `More than ${OPERATOR_FAILURES} failed operator token attempts per minute from this address`;

function limiter(name: string, points: number, redis: Redis | undefined): RateLimiterAbstract {
  const options = { points, duration: WINDOW_SECONDS, keyPrefix: `rl:${name}` };
  return redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
}

/** 429 RATE_LIMIT_EXCEEDED with `Retry-After` (whole seconds, at least 1): every limit and quota answers with this. */
export function tooMany(msBeforeNext: number, message: string, details: Record<string, unknown> = {}): AppError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(
    'RATE_LIMIT_EXCEEDED',
    message,
    { ...details, retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}
