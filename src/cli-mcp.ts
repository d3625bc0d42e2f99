// `svc mcp`: the assistant tool surface over stdio, for assistants that start a local process. It serves the
// same tools as POST /api/v3/mcp, built from the running service's OpenAPI document, and every tool call is an
// HTTP request to that service with the caller's company and key.
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadMcpServer, toolsFor, toolsOf, type OpenApiDocument, type Send } from './modules/mcp/index.ts';

export const MCP_USAGE = `  mcp            [--url <service URL, default $SVC_URL or http://127.0.0.1:8080>]
                 [--company <uuid, default $SVC_COMPANY>] [--key <API key, default $SVC_API_KEY>]
                 serve the API as MCP tools over stdio (for assistants that start a local process)`;

function overHttp(base: string, company: string, key: string): Send {
  return async (method, path, body) => {
    const res = await fetch(`${base}/api/v3${path}`, {
      method,
      headers: {
        'x-service-company': company,
        'x-api-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
    return {
      status: res.status,
      body: text ? (json ? JSON.parse(text) : text) : undefined,
      requestId: res.headers.get('x-request-id') ?? undefined,
    };
  };
}

/** Resolves when the assistant closes stdin; a bad key or an unreachable service ends it at once with a message. */
export async function runMcpStdio(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { url: { type: 'string' }, company: { type: 'string' }, key: { type: 'string' } },
  });
  const base = (values.url ?? process.env.SVC_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const company = values.company ?? process.env.SVC_COMPANY;
  const key = values.key ?? process.env.SVC_API_KEY;
  if (!company || !key) {
    console.error('error: USAGE: svc mcp needs --company and --key (or SVC_COMPANY and SVC_API_KEY)');
    return 2;
  }
  const send = overHttp(base, company, key);
  const me = await send('GET', '/auth/me');
  if (me.status !== 200) {
    const error = (me.body as { error?: { code: string; message: string } })?.error;
    console.error(`error: ${error?.code ?? me.status}: ${error?.message ?? 'the service refused the key'}`);
    return 1;
  }
  const document = (await send('GET', '/openapi.json')).body as OpenApiDocument;
  const scopes = (me.body as { data: { key: { scopes: string[] } } }).data.key.scopes;
  const { createMcpServer } = await loadMcpServer();
  const server = createMcpServer(toolsFor(toolsOf(document), scopes), send);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  await closed;
  return 0;
}
