import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ControlledTransaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { recordActivity, WRITE_METHODS } from './activities.ts';
import { flushSideRecords, settleCommit, trackCommit } from './context.ts';
import { claimLost, outcomeStatement, releaseClaim } from './idempotency.ts';

/** A write's transaction; `end` is set once it is being ended and tells whether it committed. */
interface WriteTransaction {
  tx: ControlledTransaction<DB>;
  end?: Promise<boolean>;
  error?: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    writeTransaction?: WriteTransaction;
  }
}

/** Headers of a success that did not happen: a 500 must not point at a record that was not created. */
const SUCCESS_HEADERS = ['location', 'etag', 'x-service-warning'];

const succeeded = (reply: FastifyReply) => reply.statusCode >= 200 && reply.statusCode < 300;

async function rollback(write: WriteTransaction): Promise<false> {
  // A connection that broke mid-request cannot roll back; Kysely hands it back to the pool either way.
  await write.tx
    .rollback()
    .execute()
    .catch(() => undefined);
  settleCommit(write.tx, false);
  return false;
}

/**
 * The outcome, the audit row and the events the write held back go in one statement, then it commits; any
 * failure rolls all of it back.
 */
async function commit(write: WriteTransaction, request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  try {
    await recordActivity(write.tx, request, reply);
    const outcome = outcomeStatement(write.tx, request, reply, payload);
    const stored = await flushSideRecords(write.tx, outcome);
    if (outcome && stored.length === 0) throw claimLost();
    await write.tx.commit().execute();
    request.idempotencyClaim = undefined;
    return true;
  } catch (error) {
    write.error = error;
    return rollback(write);
  }
}

/** A request that ends without its response (aborted, or a path that skipped onSend) commits nothing. */
async function abandon(db: Db, request: FastifyRequest): Promise<void> {
  const write = request.writeTransaction;
  if (!write || write.end) return;
  write.end = rollback(write);
  await write.end;
  await releaseClaim(db, request).catch((error) => request.log.error({ err: error }, 'releasing a key failed'));
}

/**
 * One request, one transaction, for every v3 write: the transaction opens after the idempotency claim
 * (the claim stays an autocommitted lock), services' inTransaction joins it (request.ctx.db), and the
 * response commits it together with the idempotent outcome and the audit row, or rolls it back. The
 * connection is held from here to the response; an aborted request rolls back, and onResponse is the
 * last safety net, so every path hands it back.
 */
export function registerRequestTransaction(app: FastifyInstance, db: Db): void {
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.ctx || !WRITE_METHODS.has(request.method) || request.writeTransaction) return;
    if (request.routeOptions.config.ownTransaction) return;
    const tx = await db.startTransaction().execute();
    request.writeTransaction = { tx };
    trackCommit(tx, db);
    request.ctx = { ...request.ctx, db: tx };
    // The client went away before its response: roll back now (Fastify's onRequestAbort misses a client
    // that leaves after its body was read). A response that went out first has ended the transaction.
    reply.raw.once('close', () => void abandon(db, request));
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const write = request.writeTransaction;
    if (!write) {
      // No write ran (a read, a replay, a refusal before the handler): only a claim may need freeing.
      if (request.ctx) await releaseClaim(db, request);
      return payload;
    }
    // Ended once, whoever comes first: this response, or an abort that rolled back already.
    write.end ??= succeeded(reply) ? commit(write, request, reply, payload) : rollback(write);
    if (await write.end) {
      settleCommit(write.tx, true, (error) => request.log.error({ err: error }, 'work after commit failed'));
      return payload;
    }
    await releaseClaim(db, request);
    if (!succeeded(reply)) return payload;
    for (const name of SUCCESS_HEADERS) reply.removeHeader(name);
    // The error handler turns this into 500 INTERNAL_ERROR (or an AppError's own code); this hook runs again.
    throw write.error ?? new Error('the write was rolled back before it could commit (the request was aborted)');
  });

  app.addHook('onRequestAbort', async (request: FastifyRequest) => abandon(db, request));
  app.addHook('onResponse', async (request: FastifyRequest) => abandon(db, request));
}
