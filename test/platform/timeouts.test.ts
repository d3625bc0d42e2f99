import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createTestApp } from '../helpers.ts';
import { loadConfig } from '../../src/config.ts';

const t = await createTestApp({ requestTimeoutMs: 1000, connectionTimeoutMs: 1500 });
const port = Number(new URL(t.baseUrl).port);
/** Longer than any bound under test: a socket still open by then was never cut off. */
const GIVE_UP_MS = 6000;

interface Outcome {
  /** Milliseconds from connecting until the server closed the socket (GIVE_UP_MS: it never did). */
  ms: number;
  received: string;
}

/** Opens a raw socket, sends `head`, then one byte of `drip` every `everyMs` until the server hangs up. */
function slowClient(head: string, drip: string, everyMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    let sent = 0;
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => {
      if (sent < drip.length && !socket.destroyed) socket.write(drip[sent++]!);
    }, everyMs);
    const giveUp = setTimeout(() => socket.destroy(), GIVE_UP_MS);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ ms: Date.now() - started, received });
    });
  });
}

const countClients = async () =>
  (
    await t.db.db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', '=', t.tenant.companyId)
      .executeTakeFirstOrThrow()
  ).n;

test('a body trickled slower than SVC_REQUEST_TIMEOUT is cut off with 408 near the bound; nothing is written', async () => {
  const before = await countClients();
  const body = JSON.stringify({ name: 'Trickled client' }).padEnd(200, ' ');
  const head =
    'POST /api/v3/clients HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    `Content-Length: ${body.length}\r\nX-Api-Key: ${t.tenant.keys.admin}\r\n` +
    `X-Service-Company: ${t.tenant.companyId}\r\n\r\n`;
  // One byte every 100 ms keeps the socket busy (no idle timeout) but takes 20 s for the whole body.
  const outcome = await slowClient(head, body, 100);
  assert.ok(outcome.ms < 3000, `the socket stayed open ${outcome.ms} ms`);
  assert.ok(outcome.ms >= 900, `cut off before the bound: ${outcome.ms} ms`);
  assert.match(outcome.received, /^HTTP\/1\.1 408 /);
  assert.equal(await countClients(), before);
});

test('headers trickled slowly are cut off too', async () => {
  const head = `GET /api/v3/health HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Slow: ' + 'a'.repeat(100)}`;
  const outcome = await slowClient('', head, 100);
  assert.ok(outcome.ms < 3000, `the socket stayed open ${outcome.ms} ms`);
});

test('a silent connection is closed after SVC_CONNECTION_TIMEOUT at the latest', async () => {
  const outcome = await slowClient('', '', 1000);
  assert.ok(outcome.ms < 3000, `the idle socket stayed open ${outcome.ms} ms`);
});

test('a request sent in time is answered as usual', async () => {
  const res = await t.request('POST', '/clients', { body: { name: 'In time' } });
  assert.equal(res.status, 201);
});

test('the timeouts come from SVC_REQUEST_TIMEOUT and SVC_CONNECTION_TIMEOUT (seconds), 30 and 60 by default', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.requestTimeoutMs, 30_000);
  assert.equal(defaults.connectionTimeoutMs, 60_000);
  const set = loadConfig({ SVC_REQUEST_TIMEOUT: '2.5', SVC_CONNECTION_TIMEOUT: '0' });
  assert.equal(set.requestTimeoutMs, 2500);
  assert.equal(set.connectionTimeoutMs, 0);
  assert.throws(() => loadConfig({ SVC_REQUEST_TIMEOUT: 'soon' }), /SVC_REQUEST_TIMEOUT/);
});
