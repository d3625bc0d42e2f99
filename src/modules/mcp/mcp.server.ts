import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { requestOf, type ApiTool } from './mcp.tools.ts';
import { PROMPTS, promptMessages } from './mcp.prompts.ts';

/** One API call, made through the service's own HTTP pipeline (in process or over the network). */
export type Send = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown; requestId?: string | undefined }>;

const RESOURCES = [
  {
    uri: 'svc://llms.txt',
    name: 'llms.txt',
    path: '/llms.txt',
    mimeType: 'text/plain',
    description: 'Index of every operation',
  },
  {
    uri: 'svc://webhooks/events',
    name: 'Event catalogue',
    path: '/webhooks/events',
    mimeType: 'application/json',
    description: 'The events webhooks can subscribe to (admin keys)',
  },
];

const toolError = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });

async function callTool(tools: Map<string, ApiTool>, send: Send, name: string, args: Record<string, unknown>) {
  const tool = tools.get(name);
  if (!tool) return toolError(`Unknown tool ${name}, or not allowed for this key's scopes`);
  const unknown = Object.keys(args).filter((key) => !(key in tool.inputSchema.properties));
  if (unknown.length)
    return toolError(
      `Unknown argument ${unknown[0]}; the tool takes ${Object.keys(tool.inputSchema.properties).join(', ') || 'no arguments'}`,
    );
  const request = requestOf(tool, args);
  if ('missing' in request) return toolError(`Argument ${request.missing} is required`);
  const answer = await send(tool.method, request.url, request.body);
  const text = answer.body === undefined ? `${answer.status} (no content)` : JSON.stringify(answer.body, null, 2);
  return {
    content: [{ type: 'text' as const, text }],
    ...(answer.status >= 400 ? { isError: true } : {}),
    _meta: { status: answer.status, ...(answer.requestId ? { request_id: answer.requestId } : {}) },
  };
}

/**
 * The assistant tool surface: one MCP server over the tools a key may use. Tool calls go through `send`, so they
 * meet the same validation, rate limits, idempotency and events as any other API call.
 */
export function createMcpServer(tools: readonly ApiTool[], send: Send): Server {
  const server = new Server(
    { name: 'service-api', version: '3.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(byName, send, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map(({ path: _path, ...resource }) => resource),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = RESOURCES.find((r) => r.uri === request.params.uri);
    if (!resource) throw new Error(`Unknown resource ${request.params.uri}`);
    const answer = await send('GET', resource.path);
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    promptMessages(request.params.name, request.params.arguments ?? {}),
  );
  return server;
}
