import type { TenantFixture } from '../helpers.ts';
import { drainLegacyOnce, type LegacyDeps } from '../../src/background/webhooks/legacy.ts';
import type { WebhookTestApp } from './setup.ts';

/** Subscribes the tenant's company to a v1.0 event as an integration does: key pair, token, then the subscription. */
export async function subscribeV1(t: WebhookTestApp, webhook: string, url: string, tenant: TenantFixture = t.tenant) {
  const V1 = `${t.baseUrl}/api/v1.0`;
  const exchange = await fetch(`${V1}/auth/token`, {
    method: 'POST',
    headers: { 'x-service-company': tenant.companyId, 'x-api-key': tenant.keys.admin },
  });
  const { token } = (await exchange.json()) as { token: string };
  const res = await fetch(`${V1}/webhooks/subscription`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook, url }),
  });
  if (res.status !== 201) throw new Error(`v1.0 subscribe failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number };
}

export async function legacyRows(t: WebhookTestApp) {
  return t.db.db.selectFrom('legacy_webhook_deliveries').selectAll().orderBy('id').execute();
}

/** Runs v1.0 deliveries in this process until none is left (retries included). */
export async function deliverLegacy(t: WebhookTestApp, deps: Partial<LegacyDeps> = {}, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await drainLegacyOnce({ ...t.deps, ...deps });
    if ((await legacyRows(t)).length === 0) return;
    if (Date.now() > deadline) throw new Error('v1.0 deliveries still queued after the time-out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The app's config with the legacy engine's settings (or others of webhooks) changed. */
export function withWebhooks(t: WebhookTestApp, changes: Record<string, unknown>) {
  const config = t.deps.config;
  return { config: { ...config, webhooks: { ...config.webhooks, ...changes } } };
}
