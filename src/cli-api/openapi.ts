// The API commands come from the served OpenAPI document, read through the same operation list as the MCP tools,
// so a route added to the service is a command here with nothing written by hand. The document is cached beside
// the config file and fetched again when it is an hour old or names no command the user typed.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toolsOf, type ApiTool, type OpenApiDocument } from '../modules/mcp/index.ts';
import { configDir, type Profile } from './config.ts';
import { call } from './http.ts';

const MAX_AGE_MS = 60 * 60 * 1000;
const CRUD: Record<string, Record<string, string>> = {
  collection: { GET: 'list', POST: 'create' },
  item: { GET: 'get', PATCH: 'update', PUT: 'update', DELETE: 'delete' },
};

export interface ApiCommand extends ApiTool {
  resource: string;
  verb: string;
}

interface Cached {
  url: string;
  fetched_at: number;
  version?: string;
  document: OpenApiDocument;
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

const cachePath = (url: string) =>
  path.join(configDir(), `openapi-${createHash('sha256').update(url).digest('hex').slice(0, 12)}.json`);

async function readCache(url: string): Promise<Cached | undefined> {
  try {
    const cached = JSON.parse(await readFile(cachePath(url), 'utf8')) as Cached;
    return cached.url === url ? cached : undefined;
  } catch {
    return undefined;
  }
}

export async function fetchDocument(profile: Profile): Promise<OpenApiDocument> {
  const answer = await call(profile, 'GET', '/openapi.json');
  const document = answer.body as OpenApiDocument & { info?: { version?: string } };
  const cached: Cached = { url: profile.url, fetched_at: Date.now(), version: document.info?.version, document };
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  await writeFile(cachePath(profile.url), JSON.stringify(cached), { mode: 0o600 });
  return document;
}

/** The cached document whatever its age, without a request (shell completion must answer at once). */
export async function cachedDocument(profile: Profile): Promise<OpenApiDocument | undefined> {
  return (await readCache(profile.url))?.document;
}

/** The cached document while fresh, unless `refresh`; else the served one. */
export async function loadDocument(profile: Profile, refresh = false): Promise<OpenApiDocument> {
  const cached = refresh ? undefined : await readCache(profile.url);
  if (cached && Date.now() - cached.fetched_at < MAX_AGE_MS) return cached.document;
  return fetchDocument(profile);
}

/**
 * `/clients` answers list/create and `/clients/{client_id}` get/update/delete; every other operation under
 * the same first segment is a verb named after its operationId (`svc invoices mark-invoice-paid 12`).
 */
function verbOf(tool: ApiTool): { resource: string; verb: string } {
  const segments = tool.path.split('/').filter(Boolean);
  const resource = segments[0]!;
  const shape =
    segments.length === 1 ? 'collection' : segments.length === 2 && segments[1]!.startsWith('{') ? 'item' : '';
  return { resource, verb: CRUD[shape]?.[tool.method] ?? kebab(tool.name) };
}

export function commandsOf(document: OpenApiDocument): ApiCommand[] {
  return toolsOf(document).map((tool) => ({ ...tool, ...verbOf(tool) }));
}

/** The body's JSON Schema of an operation (inlined by toolsOf), or undefined when it takes none. */
export const bodySchemaOf = (command: ApiCommand) =>
  command.hasBody ? (command.inputSchema.properties.body as JsonSchema) : undefined;

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  description?: string;
}
