import type { Executor } from '../db/database.ts';

export interface CompanyInfo {
  id: string;
  name: string;
  timezone: string;
  currency: string;
  subscription_status: 'active' | 'lapsed';
  plan: 'pro' | 'basic';
  features: Record<string, unknown>;
}

export interface KeyInfo {
  id: number;
  kind: 'integration' | 'personal';
  scopes: string[];
  personId: number | null;
}

/** Who is acting. A personal key acts as its person with that member's role; integration keys see the company. */
export interface Actor {
  personId: number | null;
  role: 'member' | 'admin' | 'owner' | null;
  /** true when reads and writes are limited to what the person may see (personal key of a plain member). */
  restricted: boolean;
}

/** The first argument of every service function. The tenant never comes from a request body. */
export interface Ctx {
  db: Executor;
  companyId: string;
  company: CompanyInfo;
  key: KeyInfo;
  actor: Actor;
  requestId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: Ctx;
  }
}

/** Runs fn in one transaction: one request, one transaction, nothing half-written. */
export async function inTransaction<T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  return ctx.db.transaction().execute((db) => fn({ ...ctx, db }));
}
