import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type KeyName } from '../../helpers.ts';

const t = await createTestApp();

/** The SDK's own client over Streamable HTTP, with the company header and a key as any API call carries. */
async function connect(key: KeyName) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/api/v3/mcp`), {
    requestInit: { headers: { 'x-service-company': t.tenant.companyId, 'x-api-key': t.tenant.keys[key] } },
  });
  await client.connect(transport);
  return client;
}

const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

test('tools are the API operations the key may call: a read key sees no write tools, financials need admin', async () => {
  const read = await connect('read');
  const readTools = new Set((await read.listTools()).tools.map((tool) => tool.name));
  assert.ok(readTools.has('listClients') && readTools.has('getClient'));
  assert.ok(!readTools.has('createClient'), 'a read key sees no write tools');
  assert.ok(!readTools.has('listInvoices'), 'financial tools need the financials tier');
  assert.ok(!readTools.has('mcp'));
  const admin = await connect('admin');
  const adminTools = (await admin.listTools()).tools;
  const names = new Set(adminTools.map((tool) => tool.name));
  assert.ok(names.has('createClient') && names.has('listInvoices'));
  const createClient = adminTools.find((tool) => tool.name === 'createClient')!;
  assert.equal(createClient.inputSchema.type, 'object');
  assert.ok('body' in (createClient.inputSchema.properties ?? {}), 'the JSON body is the body argument');
  const getClient = adminTools.find((tool) => tool.name === 'getClient')!;
  assert.deepEqual(getClient.inputSchema.required, ['client_id']);
  // Every documented operation is a tool, but the MCP endpoint itself, uploads and file downloads: nothing by hand.
  const doc = (await t.request('GET', '/openapi.json', { key: null, company: null })).body;
  const operations = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)
    .flatMap((item) => Object.values(item).map((op) => op.operationId))
    .filter((id) => id && id !== 'mcp');
  const notTools = ['uploadTaskAttachment', 'uploadNoteAttachment', 'downloadAttachment', 'getInvoiceDocument'];
  assert.deepEqual(
    operations.filter((id) => !names.has(id!)).sort(),
    notTools.filter((id) => operations.includes(id)).sort(),
  );
  await read.close();
  await admin.close();
});

test('a write tool runs through the API: stored, audited, and its event recorded', async () => {
  const client = await connect('write');
  const result = await client.callTool({ name: 'createClient', arguments: { body: { name: 'Made by a tool' } } });
  assert.equal(result.isError, undefined, text(result));
  const created = JSON.parse(text(result)).data;
  assert.equal(created.name, 'Made by a tool');
  assert.equal((result._meta as { status: number }).status, 201);
  const stored = await t.db.db
    .selectFrom('clients')
    .select('name')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', created.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.name, 'Made by a tool');
  const event = await t.db.db
    .selectFrom('events')
    .select(['event', 'api_key_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', created.id)
    .where('entity', '=', 'client')
    .executeTakeFirst();
  assert.deepEqual(event, { event: 'client.created', api_key_id: t.tenant.keyIds.write });
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'action', 'api_key_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', created.id)
    .executeTakeFirst();
  assert.deepEqual(audit, { entity: 'client', action: 'created', api_key_id: t.tenant.keyIds.write });

  const read = await client.callTool({ name: 'getClient', arguments: { client_id: created.id } });
  assert.equal(JSON.parse(text(read)).data.name, 'Made by a tool');
  const list = await client.callTool({ name: 'listClients', arguments: { q: 'tool', limit: 5 } });
  assert.ok(JSON.parse(text(list)).data.some((c: { id: number }) => c.id === created.id));
  await client.close();
});

test('invalid arguments are tool errors with the API error body, not transport errors', async () => {
  const client = await connect('write');
  const invalid = await client.callTool({ name: 'createClient', arguments: { body: { name: 42 } } });
  assert.equal(invalid.isError, true);
  assert.equal(JSON.parse(text(invalid)).error.code, 'VALIDATION_ERROR');
  assert.equal((invalid._meta as { status: number }).status, 400);
  const missing = await client.callTool({ name: 'getClient', arguments: {} });
  assert.equal(missing.isError, true);
  assert.match(text(missing), /client_id is required/);
  const unknown = await client.callTool({ name: 'getClient', arguments: { client_id: 1, evil: true } });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /Unknown argument evil/);
  const notFound = await client.callTool({ name: 'getClient', arguments: { client_id: 2147483000 } });
  assert.equal(JSON.parse(text(notFound)).error.code, 'NOT_FOUND');
  const forbidden = await client.callTool({ name: 'deleteWebhook', arguments: { webhook_id: 1 } });
  assert.equal(forbidden.isError, true);
  assert.match(text(forbidden), /Unknown tool deleteWebhook, or not allowed/);
  await client.close();
});

test('resources and prompts: llms.txt, the event catalogue, and prompts for common work', async () => {
  const client = await connect('admin');
  const resources = (await client.listResources()).resources.map((r) => r.uri);
  assert.deepEqual(resources.sort(), ['svc://llms.txt', 'svc://webhooks/events']);
  const llms = await client.readResource({ uri: 'svc://llms.txt' });
  assert.match((llms.contents[0] as { text: string }).text, /createClient|clients/i);
  const events = await client.readResource({ uri: 'svc://webhooks/events' });
  assert.match((events.contents[0] as { text: string }).text, /client\.created/);
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  assert.deepEqual(prompts, ['log-time-today', 'unbilled-this-month']);
  const prompt = await client.getPrompt({ name: 'log-time-today', arguments: { task: '12', duration: '1h' } });
  assert.match((prompt.messages[0]!.content as { text: string }).text, /createTimeEntry/);
  await assert.rejects(client.getPrompt({ name: 'log-time-today', arguments: { task: '12' } }));
  await client.close();
});

test('without the company header or key the endpoint answers the API errors', async () => {
  const bare = await fetch(`${t.baseUrl}/api/v3/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(bare.status, 400);
  assert.equal(((await bare.json()) as { error: { code: string } }).error.code, 'MISSING_COMPANY');
  const wrongKey = await t.request('POST', '/mcp', {
    key: 'svc_live_nope',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  assert.equal(wrongKey.status, 401);
});

test('bad input: a body that is not one JSON-RPC message is a 400 in the usual error body; plain JSON callers are served', async () => {
  for (const body of [[], [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], { a: 1 }, { jsonrpc: '1.0' }, 'x']) {
    const res = await t.request('POST', '/mcp', { key: 'read', body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const plain = await fetch(`${t.baseUrl}/api/v3/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-company': t.tenant.companyId,
      'x-api-key': t.tenant.keys.read,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    }),
  });
  assert.equal(plain.status, 200);
  const answer = (await plain.json()) as { result: { serverInfo: { name: string } } };
  assert.equal(answer.result.serverInfo.name, 'service-api');
});

test('svc mcp serves the same tools over stdio, each call an HTTP request to the service as the key', async () => {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [new URL('../../../src/cli.ts', import.meta.url).pathname, 'mcp', '--url', t.baseUrl],
    env: { ...process.env, SVC_COMPANY: t.tenant.companyId, SVC_API_KEY: t.tenant.keys.read } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  const names = new Set((await client.listTools()).tools.map((tool) => tool.name));
  assert.ok(names.has('listClients') && !names.has('createClient'), 'a read key: read tools only');
  const list = await client.callTool({ name: 'listClients', arguments: { limit: 1 } });
  assert.equal(list.isError, undefined);
  assert.equal(JSON.parse(text(list)).data.length, 1);
  await client.close();
});

test('svc mcp with a revoked or missing key ends at once with the API error', async () => {
  const { spawn } = await import('node:child_process');
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [new URL('../../../src/cli.ts', import.meta.url).pathname, 'mcp', '--url', t.baseUrl],
        {
          env: { ...process.env, SVC_COMPANY: '', SVC_API_KEY: '', ...env },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  const bad = await run({ SVC_COMPANY: t.tenant.companyId, SVC_API_KEY: 'svc_live_revoked' });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /UNAUTHORIZED/);
  const none = await run({});
  assert.equal(none.code, 2);
  assert.match(none.stderr, /needs --company and --key/);
});
