import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { loadConfig } from '../../src/config.ts';

// SVC_OPERATOR_TOKEN must be at least 32 bytes.
const TOKEN = 'operator-secret-token-of-32-bytes-at-least';
const MISSING = '00000000-0000-4000-8000-000000000000';
const ROUTES = [
  ['POST', '/operator/companies'],
  ['PATCH', `/operator/companies/${MISSING}`],
  ['POST', `/operator/companies/${MISSING}/members`],
] as const;

// Without SVC_OPERATOR_TOKEN the operator API does not exist, even for a caller who guesses a token.
const disabled = await createTestApp({ operatorToken: undefined });
// SVC_REQUIRE_HTTPS=always: plain HTTP is refused even from loopback.
const httpsOnly = await createTestApp({ operatorToken: TOKEN, requireHttps: 'always' });

test('with no operator token configured every /operator route answers 404 NOT_FOUND', async () => {
  for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: 'Bearer ' }] as Array<
    Record<string, string>
  >) {
    for (const [method, path] of ROUTES) {
      const res = await disabled.request(method, path, { key: null, company: null, headers, body: { name: 'X' } });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.error.code, 'NOT_FOUND');
      assert.equal(res.body.error.message, `No route ${method} ${path}`);
    }
  }
  const companies = await disabled.db.db.selectFrom('companies').select('id').execute();
  assert.equal(companies.length, 1, 'only the fixture tenant exists');
});

test('the operator token is refused over plain HTTP when HTTPS is required (403 HTTPS_REQUIRED)', async () => {
  for (const [method, path] of ROUTES) {
    const res = await httpsOnly.request(method, path, {
      key: null,
      company: null,
      headers: { authorization: `Bearer ${TOKEN}` },
      body: { name: 'X' },
    });
    assert.equal(res.status, 403, `${method} ${path}`);
    assert.equal(res.body.error.code, 'HTTPS_REQUIRED');
  }
  const behindProxy = await httpsOnly.request('POST', '/operator/companies', {
    key: null,
    company: null,
    headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-proto': 'https' },
    body: { name: 'X' },
  });
  assert.equal(behindProxy.status, 403, 'X-Forwarded-Proto counts only from a trusted proxy');
});

test('SVC_OPERATOR_TOKEN shorter than 32 bytes stops the start with a clear error', () => {
  assert.throws(
    () => loadConfig({ SVC_OPERATOR_TOKEN: 'operator-secret-token' }),
    /^Error: SVC_OPERATOR_TOKEN must be at least 32 bytes long, got 21/,
  );
  assert.throws(() => loadConfig({ SVC_OPERATOR_TOKEN: 'x'.repeat(31) }), /at least 32 bytes/);
  assert.equal(loadConfig({ SVC_OPERATOR_TOKEN: 'x'.repeat(32) }).operatorToken, 'x'.repeat(32));
  // Bytes, not characters: 16 two-byte characters are enough.
  assert.equal(loadConfig({ SVC_OPERATOR_TOKEN: 'é'.repeat(16) }).operatorToken, 'é'.repeat(16));
  assert.equal(loadConfig({ SVC_OPERATOR_TOKEN: '' }).operatorToken, undefined, 'empty means off');
});

test('failed operator tokens are limited per address: past 10 a minute every attempt is 429, the right token too', async () => {
  const guarded = await createTestApp({ operatorToken: TOKEN });
  const attempt = (token: string, name = 'Guessed') =>
    guarded.request('POST', '/operator/companies', {
      key: null,
      company: null,
      headers: { authorization: `Bearer ${token}` },
      body: { name },
    });
  for (let i = 0; i < 10; i++) {
    const res = await attempt(`guess-${i}`);
    assert.equal(res.status, 401, `attempt ${i + 1}`);
    assert.equal(res.body.error.code, 'UNAUTHORIZED');
  }
  for (const token of ['guess-11', TOKEN]) {
    const res = await attempt(token);
    assert.equal(res.status, 429, token);
    assert.equal(res.body.error.code, 'RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(res.body.error.details.retry_after, retryAfter);
  }
  const companies = await guarded.db.db.selectFrom('companies').select('id').execute();
  assert.equal(companies.length, 1, 'nothing was created while the address was shut out');
  // Another address is not affected (127.0.0.2 is loopback too, so plain HTTP is allowed).
  const other = await guarded.app.inject({
    method: 'POST',
    url: '/operator/companies',
    remoteAddress: '127.0.0.2',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    payload: { name: 'From elsewhere' },
  });
  assert.equal(other.statusCode, 201, other.body);
});

test('operator requests count toward the per-address limit like every other request', async () => {
  const limited = await createTestApp({ operatorToken: TOKEN }, { SVC_RATE_LIMIT_ADDRESS: '2' });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await limited.request('PATCH', `/operator/companies/${limited.tenant.companyId}`, {
      key: null,
      company: null,
      headers: { authorization: `Bearer ${TOKEN}` },
      body: { plan: 'pro' },
    });
    statuses.push(res.status);
    if (res.status === 429) assert.equal(res.body.error.code, 'RATE_LIMIT_EXCEEDED');
  }
  assert.deepEqual(statuses, [200, 200, 429]);
});
