import { hasTier, type Tier } from '../../platform/scopes.ts';

/** One API operation offered as a tool: named by its operationId, its input the operation's parameters and body. */
export interface ApiTool {
  name: string;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, unknown>;
    required?: string[];
    additionalProperties: false;
  };
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
  scope: Tier;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  description?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  'x-scope'?: Tier;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Operations that are not work on the company's records: the MCP endpoint itself and the documents about the API. */
const NOT_TOOLS = new Set(['mcp']);

/** Inlines `#/components/schemas/X` references, so each tool's input schema stands alone. */
function inline(schema: unknown, components: Record<string, unknown>, seen: Set<string> = new Set()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, components, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (seen.has(name)) return {};
    return inline(components[name], components, new Set(seen).add(name));
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, components, seen)]));
}

function toolOf(method: string, path: string, op: Operation, components: Record<string, unknown>): ApiTool {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const params = op.parameters ?? [];
  for (const p of params.filter((p) => p.in === 'path' || p.in === 'query')) {
    properties[p.name] = {
      ...(inline(p.schema, components) as object),
      ...(p.description ? { description: p.description } : {}),
    };
    if (p.required || p.in === 'path') required.push(p.name);
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) {
    properties.body = inline(body, components);
    required.push('body');
  }
  return {
    name: op.operationId!,
    description: [op.summary, op.description, `${method.toUpperCase()} ${path}; scope ${op['x-scope']}`]
      .filter(Boolean)
      .join('\n\n'),
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    method: method.toUpperCase(),
    path,
    pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
    queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
    hasBody: body !== undefined,
    scope: op['x-scope'] ?? 'admin',
  };
}

/** Uploads (multipart) and downloads (PDF, files) are not tools: an assistant exchanges JSON text. */
export function speaksJson(op: Operation): boolean {
  if (op.requestBody && !op.requestBody.content?.['application/json']) return false;
  return Object.entries(op.responses ?? {}).every(
    ([code, answer]) => !code.startsWith('2') || !answer.content || 'application/json' in answer.content,
  );
}

/** Every JSON operation of the served document as a tool: nothing is written by hand per resource. */
export function toolsOf(document: OpenApiDocument): ApiTool[] {
  const components = document.components?.schemas ?? {};
  const tools: ApiTool[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId || NOT_TOOLS.has(op.operationId) || !op['x-scope']) continue;
      if (!speaksJson(op)) continue;
      tools.push(toolOf(method, path, op, components));
    }
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}

/** The tools a key may call: a read key sees no write tools, financial tools need the financials tier. */
export const toolsFor = (tools: readonly ApiTool[], scopes: readonly string[]) =>
  tools.filter((tool) => hasTier(scopes, tool.scope));

/** The HTTP request a tool call stands for, or the name of the argument that cannot fill it. */
export function requestOf(
  tool: ApiTool,
  args: Record<string, unknown>,
): { url: string; body?: unknown } | { missing: string } {
  let url = tool.path;
  for (const name of tool.pathParams) {
    const value = args[name];
    if (value === undefined || value === null || value === '') return { missing: name };
    url = url.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  for (const name of tool.queryParams) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const search = query.toString();
  return { url: search ? `${url}?${search}` : url, ...(tool.hasBody ? { body: args.body ?? {} } : {}) };
}
