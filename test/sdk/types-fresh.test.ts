import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { staleFiles, type OpenApiDocument } from '../../scripts/gen-sdk-types.ts';

const t = await createTestApp();

test('the SDK types (sdk/src/schema.d.ts, operations.gen.ts) match the served OpenAPI document', async () => {
  const res = await t.request<OpenApiDocument>('GET', '/api/v3/openapi.json', { key: null, company: null });
  assert.equal(res.status, 200);
  assert.deepEqual(await staleFiles(res.body), [], 'stale SDK types: run npm run sdk:types');
});

test('idempotency coverage comes from the document: x-idempotent marks exactly the covered POSTs', async () => {
  const res = await t.request<OpenApiDocument>('GET', '/api/v3/openapi.json', { key: null, company: null });
  const marked = Object.entries(res.body.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) => (op['x-idempotent'] ? [`${method} ${path}`] : [])),
  );
  assert.ok(marked.includes('post /clients') && marked.includes('post /invoices/{invoice_id}/mark-paid'));
  assert.ok(!marked.includes('post /auth/keys') && !marked.includes('post /webhooks'));
  assert.ok(marked.every((m) => m.startsWith('post ')));
});
