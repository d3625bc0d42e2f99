import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { route, V3_PREFIX } from '../../platform/http.ts';
import type { Send } from './mcp.server.ts';
import { toolsFor, toolsOf, type ApiTool, type OpenApiDocument } from './mcp.tools.ts';

/** Headers a tool call carries over from the MCP request: the same credentials (a key, or a session and its CSRF token), address and protocol. */
const FORWARDED = ['x-service-company', 'x-api-key', 'cookie', 'x-csrf-token', 'x-forwarded-for', 'x-forwarded-proto'];

/** Tool calls go through the app's own HTTP pipeline, as the caller, so every rule of the API applies to them. */
function inProcess(app: FastifyInstance, request: FastifyRequest): Send {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return async (method, path, body) => {
    const res = await app.inject({
      method: method as 'GET',
      url: `${V3_PREFIX}${path}`,
      remoteAddress: request.socket.remoteAddress ?? '127.0.0.1',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    let parsed: unknown = res.body;
    if (res.body && String(res.headers['content-type'] ?? '').startsWith('application/json')) parsed = res.json();
    return {
      status: res.statusCode,
      body: res.body ? parsed : undefined,
      requestId: res.headers['x-request-id'] as string,
    };
  };
}

const Message = Type.Object(
  { jsonrpc: Type.Literal('2.0'), method: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: true, description: 'One JSON-RPC 2.0 message of MCP (no batches, as in MCP 2025-06-18)' },
);
const ANSWERS = 'application/json, text/event-stream';
/** What the transport answers (it writes the reply itself, so these describe it; Fastify serializes nothing). */
const Answer = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(
      Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
    ),
  },
  { description: 'The JSON-RPC 2.0 answer to a request (result or error)' },
);
const Accepted = Type.Null({ description: 'A notification or an answer from the client: accepted, no body' });

/** The MCP SDK (and zod with it) is loaded by the first MCP call, not at start: ~4 MB a server may never use. */
const loadMcp = async () => {
  const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./mcp.server.ts'),
  ]);
  return { StreamableHTTPServerTransport, createMcpServer };
};

export default async function mcpRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  let catalogue: ApiTool[] | undefined;
  // The document is complete once every route is registered, i.e. by the first call.
  const allTools = () => (catalogue ??= toolsOf(fastify.swagger() as unknown as OpenApiDocument));
  const spec = route('POST', '/mcp', {
    operationId: 'mcp',
    summary: 'Assistant tool surface: MCP over Streamable HTTP (stateless, JSON answers)',
    description:
      'Tools are the operations of this document, by operationId, limited to what the key may call; each call ' +
      'runs through the API as the same key (validation, rate limits, idempotency, events). Resources: ' +
      'svc://llms.txt, svc://webhooks/events. Prompts: log-time-today, unbilled-this-month.',
    tags: ['Assistant'],
    tier: 'read',
    allowWhenLapsed: true,
    schema: { body: Message, response: { 200: Answer, 202: Accepted } },
  });
  app.route({
    ...spec,
    // The tool calls are the writes, each in its own request transaction and audit row; this one holds none.
    config: { ...spec.config, ownTransaction: true, activity: false },
    handler: async (request, reply) => {
      const { StreamableHTTPServerTransport, createMcpServer } = await loadMcp();
      const server = createMcpServer(toolsFor(allTools(), request.ctx.key.scopes), inProcess(fastify, request));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      // Answers are always JSON here, so a caller that only accepts JSON (curl, a script) is served too.
      const accept = request.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
        request.raw.headers.accept = ANSWERS;
      // The transport writes the raw answer: it keeps the headers the pipeline set (X-Request-Id, X-RateLimit-*).
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      reply.raw.on('close', () => void server.close());
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
}
