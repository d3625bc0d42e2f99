import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type Response } from '../helpers.ts';
import { fill, makeFixtures, paramsOf } from '../support/fixtures.ts';
import { WARNING_HEADER_MAX_BYTES } from '../../src/platform/http.ts';

/**
 * Hostile input on every route of the route table: whatever arrives, the answer is never a 5xx, and a
 * refusal is the usual error body. Bodies start from a minimal valid body (built from the route's schema in
 * the OpenAPI document) so that one hostile field at a time gets past the required-field check.
 */
const t = await createTestApp();
const V3 = '/api/v3';

type Schema = Record<string, any>;
interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
}
const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };

const routes = t.app.routeTable.filter(
  (r) =>
    r.url.startsWith(`${V3}/`) &&
    r.config.tier &&
    r.config.tier !== 'none' &&
    r.config.tier !== 'operator' &&
    r.method !== 'HEAD',
);
const made = await makeFixtures(t, t.tenant, new Set(routes.flatMap((r) => paramsOf(r.url))));
const operationOf = (method: string, url: string) =>
  doc.paths[url.slice(V3.length).replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];

/** JSON texts: a string with U+0000, deep nesting, numbers past every integer type, wrong types. */
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const HOSTILE: Record<string, string> = {
  nul: '"a\\u0000b"',
  nulKey: '{"a\\u0000b":"\\u0000"}',
  deepObject: deepObject(5000),
  deepArray: `${'['.repeat(5000)}${']'.repeat(5000)}`,
  huge: '1e308',
  int64: '9223372036854775808',
  negInt64: '-9223372036854775808',
  array: '["x",1,null]',
  object: '{"x":{"y":[1]}}',
  boolean: 'true',
};
const WHOLE_BODIES = ['[]', '"text"', '1e308', 'null', 'true', deepObject(5000), HOSTILE.deepArray!, HOSTILE.nul!];
const QUERY_VALUES = ['%00', 'a%00b', '1e308', '9223372036854775808', '-9223372036854775808', 'x'.repeat(3000)];
const PATH_VALUES = ['9223372036854775808', '1e308', '-1', '%00', '0x10'];

/** A value the schema accepts, as far as a guess can tell (formats and a few known patterns). */
function sample(schema: Schema | undefined, name: string): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf.find((s: Schema) => s.type !== 'null') ?? schema.anyOf[0], name);
  if (schema.type === 'integer' || schema.type === 'number') {
    if (name === 'person_id' || name === 'manager_id') return t.tenant.ownerPersonId;
    return typeof made[name] === 'number' ? made[name] : (schema.minimum ?? 1);
  }
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return schema.minItems ? [sample(schema.items, name)] : [];
  if (schema.type === 'object') return minimalBody(schema);
  if (schema.format === 'date-time' || String(schema.pattern ?? '').includes('T\\d{2}')) return '2026-07-01T09:00:00Z';
  if (schema.format === 'date') return '2026-07-01';
  if (schema.format === 'email') return 'fuzz@example.com';
  if (schema.format?.startsWith('uri') || name === 'url') return 'https://127.0.0.1/hook';
  if (String(schema.pattern ?? '').startsWith('^#')) return '#1a2b3c';
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

function minimalBody(schema: Schema): Record<string, unknown> {
  return Object.fromEntries((schema.required ?? []).map((p: string) => [p, sample(schema.properties?.[p], p)]));
}

/** The base body as JSON text with one property replaced by a hostile JSON text. */
const withField = (base: Record<string, unknown>, field: string, json: string) => {
  const { [field]: _dropped, ...rest } = base;
  const text = JSON.stringify(rest);
  return `${text.slice(0, -1)}${text === '{}' ? '' : ','}${JSON.stringify(field)}:${json}}`;
};

function check(problems: string[], label: string, res: Response): void {
  const warning = res.headers.get('x-service-warning');
  if (warning !== null && Buffer.byteLength(warning) > WARNING_HEADER_MAX_BYTES)
    problems.push(`${label}: X-Service-Warning of ${Buffer.byteLength(warning)} bytes`);
  if (res.status === 429 && !/^[1-9]\d*$/.test(res.headers.get('retry-after') ?? ''))
    problems.push(`${label}: 429 without Retry-After`);
  if (res.status >= 500) problems.push(`${label}: ${res.status} ${res.text.slice(0, 160)}`);
  else if (res.status >= 400) {
    const error = res.body?.error;
    if (
      typeof error?.code !== 'string' ||
      typeof error.message !== 'string' ||
      Object.keys(res.body).join() !== 'error'
    )
      problems.push(`${label}: ${res.status} without the usual error body: ${res.text.slice(0, 160)}`);
  }
}

const send = (method: string, url: string, body?: string) =>
  t.request(method, url, {
    key: 'admin',
    body,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });

/** A few requests at a time: the walk stays well under its time budget without flooding the pool. */
async function inBatches(jobs: Array<() => Promise<void>>, size = 4): Promise<void> {
  for (let i = 0; i < jobs.length; i += size) await Promise.all(jobs.slice(i, i + size).map((job) => job()));
}

const writes = routes
  .filter((r) => r.method !== 'GET')
  // Deletes last, so the other routes still find the records they are aimed at.
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

test('the walk sees the write routes and their bodies (sanity)', () => {
  assert.ok(writes.length >= 30, `only ${writes.length} write routes`);
  const withBodies = writes.filter((r) => operationOf(r.method, r.url)?.requestBody);
  assert.ok(withBodies.length >= 20, `only ${withBodies.length} write routes with a body in the OpenAPI document`);
});

test('hostile bodies on every write route: no 5xx, refusals in the usual error body', async () => {
  const problems: string[] = [];
  const jobs: Array<() => Promise<void>> = [];
  for (const route of writes) {
    const url = fill(route.url, made);
    const schema = operationOf(route.method, route.url)?.requestBody?.content?.['application/json']?.schema;
    const base = schema ? minimalBody(schema) : {};
    const fields = Object.keys(schema?.properties ?? {});
    for (const field of fields)
      for (const [kind, json] of Object.entries(HOSTILE))
        jobs.push(async () =>
          check(
            problems,
            `${route.method} ${route.url} ${field}=${kind}`,
            await send(route.method, url, withField(base, field, json)),
          ),
        );
    for (const body of WHOLE_BODIES)
      jobs.push(async () =>
        check(problems, `${route.method} ${route.url} body ${body.slice(0, 12)}`, await send(route.method, url, body)),
      );
  }
  await inBatches(jobs);
  assert.deepEqual(problems, []);
});

test('an oversize body on every write route is refused in the usual error body', async () => {
  const problems: string[] = [];
  const oversize = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) });
  await inBatches(
    writes.map((route) => async () => {
      const res = await send(route.method, fill(route.url, made), oversize);
      check(problems, `${route.method} ${route.url} oversize`, res);
      if (route.url !== `${V3}/time-entries/bulk` && res.status !== 413)
        problems.push(`${route.method} ${route.url} oversize: ${res.status}, not 413`);
    }),
    2,
  );
  assert.deepEqual(problems, []);
});

test('an unknown query parameter on every write route is 400 UNKNOWN_FILTER_FIELD, never ignored', async () => {
  const problems: string[] = [];
  let refused = 0;
  // Fresh records: the walks above delete theirs.
  const mine = await makeFixtures(t, t.tenant, new Set(writes.flatMap((r) => paramsOf(r.url))));
  await inBatches(
    writes.map((route) => async () => {
      const schema = operationOf(route.method, route.url)?.requestBody?.content?.['application/json']?.schema;
      const body = route.method === 'DELETE' ? undefined : JSON.stringify(schema ? minimalBody(schema) : {});
      const res = await send(route.method, `${fill(route.url, mine)}?not_a_parameter=1`, body);
      const error = res.body?.error;
      if (res.status === 400 && error?.code === 'UNKNOWN_FILTER_FIELD' && error.details?.field === 'not_a_parameter')
        refused++;
      // Fastify validates the body before the query: a guessed body the schema refuses hides the query's answer.
      else if (!(res.status === 400 && /^Field /.test(error?.message ?? '')) && res.status !== 415)
        problems.push(`${route.method} ${route.url}?not_a_parameter=1: ${res.status} ${error?.code ?? ''}`);
    }),
  );
  assert.deepEqual(problems, []);
  assert.ok(refused >= writes.length * 0.9, `only ${refused} of ${writes.length} write routes reached the query check`);
});

test('hostile query strings and path parameters on every route: no 5xx', async () => {
  const problems: string[] = [];
  const jobs: Array<() => Promise<void>> = [];
  for (const route of routes) {
    const url = fill(route.url, made);
    const query = (operationOf(route.method, route.url)?.parameters ?? []).filter((p) => p.in === 'query');
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}';
    for (const { name } of query)
      for (const value of QUERY_VALUES)
        jobs.push(async () =>
          check(
            problems,
            `${route.method} ${route.url}?${name}=${value.slice(0, 12)}`,
            await send(route.method, `${url}?${name}=${value}`, body),
          ),
        );
  }
  for (const route of routes.filter((r) => paramsOf(r.url).length > 0)) {
    const [first] = paramsOf(route.url);
    for (const value of PATH_VALUES) {
      const url = fill(route.url, { ...made, [first!]: value });
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}';
      jobs.push(async () =>
        check(problems, `${route.method} ${route.url} ${first}=${value}`, await send(route.method, url, body)),
      );
    }
  }
  await inBatches(jobs);
  assert.deepEqual(problems, []);
});

test('the widest window on every route that takes date_from and date_to: never a 5xx, never slow, capped where it is work', async () => {
  const WIDE = { date_from: '0001-01-01', date_to: '9999-12-31' };
  // Where the window is the work (a fee period per month of every contract, a company-wide snapshot): refused.
  const CAPPED = [
    'GET /missed-billing',
    'GET /reports/kpi-summary',
    'GET /reports/time-summary',
    'POST /reports/bi/refresh',
    'POST /clients/:client_id/invoices',
  ];
  const problems: string[] = [];
  const seen: string[] = [];
  for (const route of routes) {
    const operation = operationOf(route.method, route.url);
    const query = new Set((operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
    const schema = operation?.requestBody?.content?.['application/json']?.schema;
    const inBody = 'date_from' in (schema?.properties ?? {}) && 'date_to' in (schema?.properties ?? {});
    if (!(query.has('date_from') && query.has('date_to')) && !inBody) continue;
    const label = `${route.method} ${route.url.slice(V3.length)}`;
    seen.push(label);
    const url = fill(route.url, made);
    const started = performance.now();
    const res = inBody
      ? await send(route.method, url, JSON.stringify({ ...minimalBody(schema!), ...WIDE }))
      : await send(route.method, `${url}?${new URLSearchParams(WIDE)}`, route.method === 'GET' ? undefined : '{}');
    const ms = performance.now() - started;
    check(problems, label, res);
    if (ms > 3000) problems.push(`${label}: ${Math.round(ms)} ms for the widest window`);
    if (CAPPED.includes(label) && res.body?.error?.details?.reason !== 'RANGE_TOO_LONG')
      problems.push(`${label}: ${res.status} ${res.text.slice(0, 160)}, not RANGE_TOO_LONG`);
  }
  assert.deepEqual(
    CAPPED.filter((label) => !seen.includes(label)),
    [],
    'every capped route was walked',
  );
  assert.deepEqual(problems, []);
});
