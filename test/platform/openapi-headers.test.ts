import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';

// Rate limits on, so the answers carry the X-RateLimit-* headers the document declares (the contract check sees them).
const t = await createTestApp({}, { SVC_RATE_LIMIT_READ: '1000', SVC_RATE_LIMIT_WRITE: '1000' });
const anonymous = { key: null, company: null } as const;

type Header = { $ref?: string; required?: boolean };
type Response = { headers?: Record<string, Header>; content?: Record<string, unknown> };
type Operation = {
  'x-scope'?: string;
  'x-preview'?: boolean;
  'x-idempotent'?: boolean;
  security?: unknown[];
  tags?: string[];
};
type Op = Operation & { responses: Record<string, Response> };
const doc = (await t.request('GET', '/api/v3/openapi.json', anonymous)).body as {
  paths: Record<string, Record<string, Op>>;
  components: { headers: Record<string, Header> };
};
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);
const required = (header: Header | undefined) =>
  header?.$ref ? doc.components.headers[header.$ref.split('/').pop()!]?.required === true : header?.required === true;

test('every answer declares X-Request-Id; authenticated operations the four X-RateLimit-* headers on every status', () => {
  for (const { name, op } of operations)
    for (const [status, response] of Object.entries(op.responses)) {
      assert.ok(required(response.headers?.['X-Request-Id']), `${name} ${status}`);
      const limited = op['x-scope'] !== 'none';
      for (const header of ['Limit', 'Remaining', 'Reset', 'Tier'])
        assert.equal(Boolean(response.headers?.[`X-RateLimit-${header}`]), limited, `${name} ${status} ${header}`);
    }
});

test('429 requires Retry-After; preview operations require X-Api-Preview on every status', () => {
  for (const { name, op } of operations)
    for (const [status, response] of Object.entries(op.responses)) {
      if (status === '429') assert.ok(required(response.headers?.['Retry-After']), name);
      assert.equal(required(response.headers?.['X-Api-Preview']), op['x-preview'] === true, `${name} ${status}`);
    }
  const processing = doc.paths['/attachments/{attachment_id}/download']!.get!.responses['409']!;
  assert.equal(processing.headers?.['Retry-After']?.required, false, 'only while the file is processing');
});

test('covered POSTs declare Idempotency-Replayed on success; single records ETag; answers with warnings[] X-Service-Warning', () => {
  for (const { name, op } of operations) {
    const success = Object.entries(op.responses).filter(([s]) => s.startsWith('2'));
    for (const [, response] of success)
      assert.equal(Boolean(response.headers?.['Idempotency-Replayed']), op['x-idempotent'] === true, name);
  }
  const client = doc.paths['/clients/{client_id}']!;
  assert.ok(client.get!.responses['200']!.headers?.ETag && client.patch!.responses['200']!.headers?.ETag);
  assert.ok(client.patch!.responses['200']!.headers?.['X-Service-Warning']);
  assert.equal(doc.paths['/clients']!.get!.responses['200']!.headers?.ETag, undefined, 'a list has no ETag');
});

test('the answers carry what the document declares: rate-limit headers, ETag, X-Service-Warning, a replay header', async () => {
  const created = await t.request('POST', '/clients', {
    body: { name: 'Headed' },
    headers: { 'idempotency-key': 'h1' },
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('x-ratelimit-tier'), 'write');
  assert.match(created.headers.get('etag') ?? '', /.+/);
  const replay = await t.request('POST', '/clients', {
    body: { name: 'Headed' },
    headers: { 'idempotency-key': 'h1' },
  });
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  const read = await t.request('GET', `/clients/${created.body.data.id}`);
  assert.equal(read.headers.get('x-ratelimit-tier'), 'read');
  assert.equal(read.headers.get('etag'), created.headers.get('etag'));
});

test('operations open without credentials say security: []; the signed-in account routes the session; the others the company and a key or a session', () => {
  for (const { name, op } of operations) {
    const accountRoute = op.tags?.includes('Web sessions') && op.security?.length === 1;
    if (accountRoute) assert.deepEqual(op.security, [{ session: [] }], name);
    else if (op['x-scope'] === 'none') assert.deepEqual(op.security, [], name);
    else assert.equal(op.security?.length, 2, name);
  }
  assert.deepEqual(doc.paths['/auth/sessions']!.post!.security, [], 'signing in needs no credential');
  assert.deepEqual(doc.paths['/health']!.get!.security, []);
});

test('POST /mcp declares its 200 and 202; downloads declare the types they answer', async () => {
  const mcp = doc.paths['/mcp']!.post!.responses;
  assert.ok(mcp['200']?.content?.['application/json'] && mcp['202']);
  const download = doc.paths['/attachments/{attachment_id}/download']!.get!.responses;
  assert.deepEqual(Object.keys(download['200']!.content!), ['*/*']);
  assert.ok(download['206']!.headers?.['Content-Range'] && download['200']!.headers?.['Content-Disposition']);
  const document = doc.paths['/invoices/{invoice_id}/document']!.get!.responses['200']!;
  assert.deepEqual(Object.keys(document.content!).sort(), ['application/pdf', 'application/xml; charset=utf-8']);
  const answer = await t.request('POST', '/mcp', {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    headers: { accept: 'application/json, text/event-stream' },
  });
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('x-request-id') ?? '', /.+/, 'the raw MCP answer keeps the pipeline headers');
  assert.equal(answer.headers.get('x-ratelimit-tier'), 'write');
});
