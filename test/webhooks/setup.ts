import { createTestApp, type TestApp } from '../helpers.ts';
import { drainOnce, type EngineDeps } from '../../src/background/webhooks/engine.ts';
import type { Log } from '../../src/background/log.ts';
import { loadModules } from '../../src/modules/index.ts';
import type { Resolver } from '../../src/platform/ssrf.ts';

/** Short retry ladder, no pacing, private receivers allowed: the defaults of the delivery tests. */
export const TEST_ENV = {
  SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
  SVC_WEBHOOK_RETRY_DELAYS: '0.05,0.1,0.15',
  SVC_WEBHOOK_RATE: '0',
  SVC_WEBHOOK_CONCURRENCY: '2',
  SVC_WEBHOOK_TIMEOUT: '2',
};

export interface LogLine {
  level: string;
  obj: Record<string, unknown>;
  msg: string;
}

export function memoryLog(): Log & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (obj: object, msg: string) => {
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

export interface WebhookTestApp extends TestApp {
  deps: EngineDeps & { log: ReturnType<typeof memoryLog> };
}

export async function webhookApp(
  env: Record<string, string> = {},
  resolve?: Resolver,
  extra: { web?: boolean } = {},
): Promise<WebhookTestApp> {
  const t = await createTestApp({}, { ...TEST_ENV, ...env }, extra);
  const deps = { db: t.db.db, config: t.app.config, log: memoryLog(), shapes: loadModules().eventShapes, resolve };
  return Object.assign(t, { deps });
}

export async function pendingCount(t: WebhookTestApp): Promise<number> {
  const row = await t.db.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Runs deliveries in this process until nothing is pending (retries included). */
export async function deliverAll(t: WebhookTestApp, deps: Partial<EngineDeps> = {}, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await drainOnce({ ...t.deps, ...deps });
    if ((await pendingCount(t)) === 0) return;
    if (Date.now() > deadline) throw new Error('deliveries still pending after the time-out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function subscribe(t: TestApp, webhook: string, url: string): Promise<{ id: number; secret: string }> {
  const res = await t.request('POST', '/webhooks', { body: { webhook, url } });
  if (res.status !== 201) throw new Error(`subscribe failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, secret: res.body.data.secret };
}

export async function createClient(t: TestApp, name = 'Acme'): Promise<any> {
  const res = await t.request('POST', '/clients', { body: { name } });
  if (res.status !== 201) throw new Error(`client create failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function attemptsOf(t: TestApp, webhookId: number): Promise<any[]> {
  const res = await t.request('GET', `/webhooks/${webhookId}/deliveries?sort=id&limit=200`);
  if (res.status !== 200) throw new Error(`deliveries failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Records an event straight into the outbox, as a write of that entity would (the trigger fans it out). */
export async function recordRaw(
  t: TestApp,
  event: string,
  recordId: number,
  data: Record<string, unknown> = { id: recordId },
): Promise<string> {
  const [entity, action] = event.split('.') as [string, string];
  const uuid = crypto.randomUUID();
  await t.db.db
    .insertInto('events')
    .values({
      company_id: t.tenant.companyId,
      uuid,
      event,
      entity,
      action,
      record_id: recordId,
      data: JSON.stringify(data),
      api_key_id: null,
      person_id: null,
      occurred_at: new Date().toISOString(),
    })
    .execute();
  return uuid;
}
