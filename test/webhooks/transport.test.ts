import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { pathToFileURL } from 'node:url';
import type { verifySignature } from '../../docs/examples/verify-signature.ts';
import { startReceiver } from './receiver.ts';
import { attemptsOf, deliverAll, recordRaw, subscribe, webhookApp } from './setup.ts';

const t = await webhookApp();

test('https: the socket goes to the checked address, SNI names the host, and the certificate is verified', async () => {
  const fixtures = path.join(import.meta.dirname, 'fixtures');
  const seen: string[] = [];
  const credentials = {
    key: readFileSync(path.join(fixtures, 'receiver-test.key')),
    cert: readFileSync(path.join(fixtures, 'receiver-test.crt')),
  };
  const context = tls.createSecureContext(credentials);
  const server = https.createServer(
    {
      ...credentials,
      SNICallback: (name, cb) => {
        seen.push(name);
        cb(null, context);
      },
    },
    (_req, res) => res.end('ok'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    const sub = await subscribe(t, 'task.updated', 'http://127.0.0.1/placeholder');
    await t.db.db
      .updateTable('webhooks')
      .set({ url: `https://receiver.test:${port}/tls` })
      .where('id', '=', sub.id)
      .execute();
    await recordRaw(t, 'task.updated', 10);
    const config = { ...t.deps.config, webhooks: { ...t.deps.config.webhooks, retryDelaysMs: [] } };
    await deliverAll(t, { config, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const [row] = await attemptsOf(t, sub.id);
    assert.equal(row.status, 'failed');
    assert.match(
      row.response_body,
      /^not delivered: TLS error \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/,
      'a self-signed certificate is not trusted',
    );
    assert.deepEqual(seen, ['receiver.test'], 'the handshake reached the checked address and named the host');
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("the receiver guide's snippet, exactly as printed, verifies a real delivery", async () => {
  const guide = readFileSync(path.join(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const snippet = /## Verify the signature[\s\S]*?```ts\n([\s\S]*?)```/.exec(guide)?.[1];
  assert.ok(snippet?.includes('export function verifySignature'), 'the guide prints the snippet');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-guide-'));
  writeFileSync(path.join(dir, 'snippet.ts'), snippet!);
  const printed = (await import(pathToFileURL(path.join(dir, 'snippet.ts')).href)) as {
    verifySignature: typeof verifySignature;
  };
  const receiver = await startReceiver();
  const sub = await subscribe(t, 'project.deleted', receiver.url);
  await recordRaw(t, 'project.deleted', 11);
  await deliverAll(t);
  const [got] = await receiver.waitFor(1);
  const h = got!.headers;
  assert.ok(
    printed.verifySignature(
      got!.raw,
      h['x-service-signature'] as string,
      h['x-service-timestamp'] as string,
      sub.secret,
    ),
  );
  assert.ok(
    !printed.verifySignature(
      Buffer.concat([got!.raw, Buffer.from(' ')]),
      h['x-service-signature'] as string,
      h['x-service-timestamp'] as string,
      sub.secret,
    ),
    'a changed body fails',
  );
});
