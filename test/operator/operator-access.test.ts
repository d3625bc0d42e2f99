import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';

const TOKEN = 'operator-secret-token';
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
