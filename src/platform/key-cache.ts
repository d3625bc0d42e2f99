import pg from 'pg';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A write that changes what a key or session lookup answers (the route's module declares `changesAuth`). */
    changesAuth?: boolean;
  }
}

/** The channel the database announces key, member and company changes on (migration 0005), by company id. */
export const AUTH_CHANNEL = 'svc_auth';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1_000;

interface Entry<T> {
  value: T;
  at: number;
}

/**
 * The key lookup every request makes, kept in memory. It is only trusted while this process hears the
 * database's change notices: a trigger on api_keys, members and companies notifies `svc_auth` with the
 * company id in the changing transaction, so a revocation, rotation, expiry change, member deactivation
 * or plan change evicts the company's keys on every instance the moment it commits. Without a live
 * listener nothing is cached. A lookup that started before an eviction is not stored (generations).
 */
export class KeyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly generations = new Map<string, number>();
  private listening = false;
  /** Hits and misses of getFresh since the start (read by the metrics, decision 0059). */
  readonly lookups = { hit: 0, miss: 0 };
  /** Resolves once every notice committed before the call has been heard (false: cannot tell). */
  fence: () => Promise<boolean> = async () => false;

  get enabled(): boolean {
    return this.listening;
  }

  /** The company's generation, read before the database lookup and handed back to `set`. */
  generation(companyId: string): number {
    return this.generations.get(companyId) ?? 0;
  }

  get(companyId: string, keyHash: string): T | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(`${companyId}:${keyHash}`);
    if (!entry) return undefined;
    if (Date.now() - entry.at > MAX_AGE_MS) {
      this.entries.delete(`${companyId}:${keyHash}`);
      return undefined;
    }
    return entry.value;
  }

  /**
   * A cached row that no change committed before this call has invalidated. A notice reaches the listener a
   * moment after its commit, so a hit waits for the listener's fence: every notice queued before it is heard
   * first, and an eviction heard meanwhile removes the entry.
   */
  async getFresh(companyId: string, keyHash: string): Promise<T | undefined> {
    const value = await this.lookUp(companyId, keyHash);
    // Counted for GET /metrics: a miss is a lookup that goes to the database.
    this.lookups[value === undefined ? 'miss' : 'hit']++;
    return value;
  }

  private async lookUp(companyId: string, keyHash: string): Promise<T | undefined> {
    if (this.get(companyId, keyHash) === undefined) return undefined;
    if (!(await this.fence())) return undefined;
    return this.get(companyId, keyHash);
  }

  set(companyId: string, keyHash: string, value: T, generation: number): void {
    if (!this.listening || this.generation(companyId) !== generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${companyId}:${keyHash}`, { value, at: Date.now() });
  }

  evictCompany(companyId: string): void {
    this.generations.set(companyId, this.generation(companyId) + 1);
    for (const key of this.entries.keys()) if (key.startsWith(`${companyId}:`)) this.entries.delete(key);
  }

  /** Listening or not: anything cached while deaf could be stale, so both directions start empty. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.entries.clear();
    for (const company of this.generations.keys()) this.generations.set(company, this.generation(company) + 1);
  }
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * The fence: this listener notifies its own channel with a marker and waits to hear it back. PostgreSQL
 * delivers notices in commit order, so by the time the marker arrives every notice committed before it was
 * sent has been heard. Callers that arrive while a marker is out wait for the next one (the one out may have
 * been sent before their request began); one marker serves all of them.
 */
class Fence {
  private readonly tag = `~fence:${process.pid}:${Math.random().toString(36).slice(2)}`;
  private sequence = 0;
  private out: { seq: number; waiters: Array<(ok: boolean) => void> } | undefined;
  private next: Array<(ok: boolean) => void> = [];

  private readonly send: (payload: string) => Promise<unknown>;

  constructor(send: (payload: string) => Promise<unknown>) {
    this.send = send;
  }

  wait(): Promise<boolean> {
    return new Promise((resolve) => {
      this.next.push(resolve);
      if (!this.out) this.launch();
    });
  }

  /** True when the notice was one of this fence's markers. */
  heard(payload: string): boolean {
    if (!payload.startsWith('~fence:')) return false;
    if (this.out && payload === `${this.tag}:${this.out.seq}`) {
      const { waiters } = this.out;
      this.out = undefined;
      for (const resolve of waiters) resolve(true);
      if (this.next.length) this.launch();
    }
    return true;
  }

  fail(): void {
    const waiters = [...(this.out?.waiters ?? []), ...this.next];
    this.out = undefined;
    this.next = [];
    for (const resolve of waiters) resolve(false);
  }

  private launch(): void {
    this.out = { seq: ++this.sequence, waiters: this.next };
    this.next = [];
    this.send(`${this.tag}:${this.out.seq}`).catch(() => this.fail());
  }
}

/**
 * Keeps one connection LISTENing on the auth channel, reconnecting after a loss (the caches are off meanwhile).
 * One listener serves every cache given (API keys, web sessions): each hears every notice.
 */
export function listenForAuthChanges(
  connection: pg.ClientConfig,
  caches: KeyCache<unknown> | ReadonlyArray<KeyCache<unknown>>,
  log: (message: string, error?: unknown) => void,
): Listener {
  const all: ReadonlyArray<KeyCache<unknown>> = Array.isArray(caches) ? caches : [caches as KeyCache<unknown>];
  const setListening = (listening: boolean) => all.forEach((cache) => cache.setListening(listening));
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const fence = new Fence((payload) => {
    if (!client) return Promise.reject(new Error('not listening'));
    return client.query('SELECT pg_notify($1, $2)', [AUTH_CHANNEL, payload]);
  });
  for (const cache of all) cache.fence = () => (cache.enabled ? fence.wait() : Promise.resolve(false));

  const lost = (error?: unknown) => {
    setListening(false);
    fence.fail();
    client?.removeAllListeners();
    client?.end().catch(() => {});
    client = undefined;
    if (closed) return;
    log('key cache: change listener lost; caching is off until it reconnects', error);
    timer = setTimeout(connect, RECONNECT_MS);
    timer.unref();
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({ ...connection, application_name: 'service-api-listen' });
    client = next;
    next.on('error', lost);
    next.on('end', () => client === next && lost());
    next.on('notification', (message) => {
      if (message.channel !== AUTH_CHANNEL || !message.payload || fence.heard(message.payload)) return;
      for (const cache of all) cache.evictCompany(message.payload);
    });
    try {
      await next.connect();
      // The fence's markers are commits of their own; they need no flush to disk.
      await next.query('SET synchronous_commit = off');
      await next.query(`LISTEN ${AUTH_CHANNEL}`);
      if (client === next && !closed) setListening(true);
    } catch (error) {
      if (client === next) lost(error);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      setListening(false);
      fence.fail();
      const current = client;
      client = undefined;
      current?.removeAllListeners();
      await current?.end().catch(() => {});
    },
  };
}
