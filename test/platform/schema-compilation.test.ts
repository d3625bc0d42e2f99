// Validators and serializers compile on a route's first use (src/platform/validation.ts): the start stays
// light, the first request still validates, and `compileSchemas()` proves that every schema compiles.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';

const t = await createTestApp();
after(() => t.close());

test('a route used before the rest is compiled validates its input and serializes its answer', async () => {
  const bad = await t.request('POST', '/api/v3/clients', { body: { name: 'a\u0000b' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal(bad.body.error.details.errors[0].field, 'name');

  const made = await t.request('POST', '/api/v3/clients', { body: { name: 'First use' } });
  assert.equal(made.status, 201);
  const read = await t.request('GET', `/api/v3/clients/${made.body.data.id}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.data.name, 'First use');
  assert.deepEqual(Object.keys(read.body), ['data']);
});

test('every schema of every route compiles, and nothing is compiled twice', () => {
  const compiled = t.app.compileSchemas();
  // Hundreds of operations, each with a body, query, params and responses: most were still waiting.
  assert.ok(compiled > 500, `only ${compiled} schemas were still to compile`);
  assert.equal(t.app.compileSchemas(), 0);
});
