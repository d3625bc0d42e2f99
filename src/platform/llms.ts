type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  'x-scope'?: string;
  'x-preview'?: boolean;
  tags?: string[];
};
type Document = {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
};

function operations(document: Document) {
  const out: Array<{ method: string; path: string; op: Operation }> = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

const header = (document: Document) => [
  `# ${document.info?.title ?? 'API'} (${document.info?.version ?? ''})`,
  '',
  `> ${document.info?.description ?? ''}`,
  '',
  'Authentication: send `X-Service-Company: <company uuid>` and `X-API-Key: svc_live_...` on every request except GET /health.',
  'Errors: `{error: {code, message, details?}}`. Lists: `limit` 1-200, `offset` 0-10000, `sort` (prefix - for descending), `cursor` (from meta.next_cursor).',
  'The machine-readable description is at /api/v3/openapi.json.',
  '',
];

function line({ method, path, op }: { method: string; path: string; op: Operation }): string {
  const flags = [op['x-scope'] ? `scope: ${op['x-scope']}` : '', op['x-preview'] ? 'preview' : '']
    .filter(Boolean)
    .join(', ');
  return `- ${method} /api/v3${path}: ${op.summary ?? op.operationId ?? ''}${flags ? ` (${flags})` : ''}`;
}

const jsonBlock = (title: string, schema: unknown) => ['', title, '```json', JSON.stringify(schema), '```'];

function detail(entry: { method: string; path: string; op: Operation }): string {
  const { op } = entry;
  const preview = op['x-preview'] ? ' (preview: responses carry X-Api-Preview: true)' : '';
  const parts = [
    `## ${entry.method} /api/v3${entry.path}`,
    '',
    ...([op.summary, op.description].filter(Boolean) as string[]),
    `Scope: ${op['x-scope'] ?? 'none'}${preview}`,
  ];
  if (op.parameters?.length) parts.push('', 'Parameters:');
  for (const p of op.parameters ?? []) {
    parts.push(
      `- ${p.in} \`${p.name}\`${p.required ? ' (required)' : ''}: ${[p.description, JSON.stringify(p.schema ?? {})].filter(Boolean).join(' ')}`,
    );
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) parts.push(...jsonBlock('Request body schema:', body));
  // Error responses carry their codes as the description (see route() in http.ts).
  parts.push(
    '',
    'Responses:',
    ...Object.entries(op.responses ?? {}).map(([status, response]) => `- ${status}: ${response.description ?? ''}`),
  );
  const ok = op.responses?.['200'] ?? op.responses?.['201'];
  const schema = ok?.content?.['application/json']?.schema;
  if (schema) parts.push(...jsonBlock('Response schema:', schema));
  return parts.join('\n');
}

/** llms.txt (an index) and llms-full.txt (every operation in full), both from the OpenAPI document. */
export function renderLlms(document: Document): { short: string; full: string } {
  const ops = operations(document);
  const short = [...header(document), '## Operations', '', ...ops.map(line), ''].join('\n');
  // The header is already line-separated; operations are separated by a blank line.
  const full = [header(document).join('\n').trimEnd(), ...ops.map(detail), ''].join('\n\n');
  return { short, full };
}
