import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import { verifySignature } from '../../docs/examples/verify-signature.ts';
import { createTestApp, type TenantFixture } from '../helpers.ts';
import { makeHome, SLOW, spawnSvc } from './support.ts';

const t = await createTestApp();
const home = await makeHome();

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A local receiver, as a developer's laptop runs one: it records each delivery and answers 200. */
const received: Received[] = [];
const receiver = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, raw });
    res.writeHead(200).end('ok');
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const envOf = (tenant: TenantFixture) => ({
  SVC_URL: t.baseUrl,
  SVC_COMPANY: tenant.companyId,
  SVC_API_KEY: tenant.keys.admin,
});

/** Starts listen and resolves once it printed its secret; stdout lines are collected as they come. */
async function listen(args: string[], tenant = t.tenant) {
  const child = spawnSvc(
    home,
    ['webhooks', 'listen', '--forward-to', hook, '--interval', '200', ...args],
    envOf(tenant),
  );
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'close') as Promise<[number | null]>;
  const secret = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = line.match(/^Signing secret: (whsec_\S+)/);
      if (match) resolve(match[1]!);
    });
    child.on('close', () => reject(new Error(`listen ended before it was ready: ${stderr}`)));
  });
  return { child, lines, secret, exited, stderr: () => stderr };
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const stop = async (child: ChildProcess) => {
  child.kill('SIGTERM');
  await once(child, 'close');
};

test('listen forwards new events, signed as real deliveries, and prints the local answer', SLOW, async () => {
  const before = await t.request('POST', '/clients', { body: { name: 'Before listen' } });
  assert.equal(before.status, 201);
  const run = await listen(['--events', 'client.created,client.deleted']);
  assert.match(run.lines[0]!, /^Ready\. Forwarding events of Test Co since \S+ to http:\/\/127\.0\.0\.1:\d+\/hook$/);
  const created = await t.request('POST', '/clients', { body: { name: 'Heard locally' } });
  const id = created.body.data.id as number;
  assert.equal((await t.request('PATCH', `/clients/${id}`, { body: { name: 'Renamed' } })).status, 200);
  assert.equal((await t.request('DELETE', `/clients/${id}`)).status, 204);
  await until('two deliveries', () => (received.length >= 2 ? true : undefined));
  await until('two printed lines', () => (run.lines.length >= 4 ? true : undefined));
  await stop(run.child);

  const events = await t.db.db
    .selectFrom('events')
    .select(['uuid', 'event'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', id)
    .orderBy('id')
    .execute();
  const wanted = events.filter((e) => e.event !== 'client.updated');
  assert.deepEqual(
    received.map((r) => r.headers['x-service-event']),
    ['client.created', 'client.deleted'],
    'the event before listen and the filtered-out update are not sent',
  );
  for (const [i, delivery] of received.entries()) {
    const body = JSON.parse(delivery.raw);
    assert.equal(body.id, wanted[i]!.uuid);
    assert.deepEqual(Object.keys(body), ['id', 'event', 'occurred_at', 'data']);
    assert.equal(delivery.headers['x-service-delivery-id'], wanted[i]!.uuid);
    assert.equal(delivery.headers['content-type'], 'application/json');
    assert.equal(delivery.headers['user-agent'], 'Service-Webhooks/3.0');
    assert.equal(delivery.headers['x-service-webhook-id'], '0');
    const signature = delivery.headers['x-service-signature'] as string;
    const timestamp = delivery.headers['x-service-timestamp'] as string;
    assert.ok(verifySignature(delivery.raw, signature, timestamp, run.secret), 'the signature verifies');
    assert.ok(!verifySignature(delivery.raw, signature, timestamp, 'whsec_other'), 'and only with that secret');
  }
  assert.equal(JSON.parse(received[0]!.raw).data.name, 'Heard locally');
  assert.deepEqual(JSON.parse(received[1]!.raw).data, { id });
  assert.match(run.lines[2]!, new RegExp(`^\\S+  client\\.created  ${wanted[0]!.uuid}  -> 200 OK \\(\\d+ ms\\)$`));
  assert.match(run.lines[3]!, new RegExp(`  client\\.deleted  ${wanted[1]!.uuid}  -> 200 OK`));
});

test('a revoked key ends listen with a clear message and exit 4', SLOW, async () => {
  const other = await t.newTenant({ name: 'Revoked Co' });
  const run = await listen([], other);
  // Through the API, as a user would: the service's key cache hears of the revocation.
  const revoked = await t.request('DELETE', `/auth/keys/${other.keyIds.admin}`, { tenant: other, key: 'admin' });
  assert.equal(revoked.status, 204, revoked.text);
  const [code] = await run.exited;
  assert.equal(code, 4);
  assert.match(
    run.stderr(),
    /^error: \w+: the service refused the key \(.+\): it was revoked, expired or lost its admin scope; listening stopped/,
  );
});

test('a forward URL that is not http(s) is a usage error before anything runs', SLOW, async () => {
  const child = spawnSvc(home, ['webhooks', 'listen', '--forward-to', 'ftp://localhost/x'], envOf(t.tenant));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 2);
  assert.match(stderr, /--forward-to must be an http\(s\) URL/);
  receiver.close();
});
