import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type Response } from '../helpers.ts';
import { minimalBody, references, sample, withValue, type Samples, type Schema } from '../support/bodies.ts';
import { fill, paramsOf } from '../support/fixtures.ts';
import { CLIENT_RECORDS, makeWorld, snapshot, sightings, type RecordParam } from '../support/visibility-world.ts';

/**
 * The visibility walk (issue 24): a plain member's personal key, on every route of the route table, against
 * records hanging off clients the member cannot see. Reads must show none of them (by id, or by a field naming
 * one); a write aimed at one, or naming one in its body, must answer exactly what an absent id answers (same
 * status, code and message), and change nothing. The visible world proves the walk would see a record.
 */
const t = await createTestApp();
const V3 = '/api/v3';
const ABSENT = 2147483000;
const member = t.tenant.memberPersonId;

interface Operation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
}
const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
const operationOf = (method: string, url: string) =>
  doc.paths[url.slice(V3.length).replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
const bodySchema = (method: string, url: string) =>
  operationOf(method, url)?.requestBody?.content?.['application/json']?.schema;

const routes = t.app.routeTable.filter(
  (r) =>
    r.url.startsWith(`${V3}/`) && r.config.tier && !['none', 'operator'].includes(r.config.tier) && r.method !== 'HEAD',
);
const isRecord = (p: string): p is RecordParam => p in CLIENT_RECORDS;
const gets = routes.filter((r) => r.method === 'GET');
/** Reads that name no record of the worlds (lists, reports, configuration): filled from the visible world. */
const views = gets.filter((r) => !paramsOf(r.url).some(isRecord));

const visible = await makeWorld(t, t.tenant, member, new Set(routes.flatMap((r) => paramsOf(r.url))));
const samples: Samples = { ids: visible.made, person: member };
const before = await Promise.all(views.map((r) => view(r.url, '')));
const hidden = await makeWorld(t, t.tenant, t.tenant.ownerPersonId);
const hiddenRows = await snapshot(t, hidden);

/** A read as the member: a page of 200 where the route takes `limit`, required values, windows from 2026 (the fixtures' year). */
async function view(url: string, query: string): Promise<Response> {
  const parts = (operationOf('GET', url)?.parameters ?? [])
    .filter((p) => p.in === 'query' && !query.includes(`${p.name}=`))
    .map((p) => {
      if (p.name === 'limit') return 'limit=200';
      if (p.name === 'date_from') return 'date_from=2026-01-01';
      if (p.name === 'q' && p.required) return 'q=Walk';
      return p.required ? `${p.name}=${String(sample(p.schema, p.name, samples))}` : '';
    });
  const search = [...parts, query].filter(Boolean).join('&');
  return t.request('GET', `${fill(url, visible.made)}${search ? `?${search}` : ''}`, { key: 'personal' });
}

/** The kind of record a route answers: the last path parameter of its read by id (GET /contacts -> contact_id). */
const kindOfRoute = (url: string): RecordParam | undefined => {
  const read = /:\w+$/.test(url) ? url : gets.find((r) => new RegExp(`^${url}/:\\w+$`).test(r.url))?.url;
  const param = read?.match(/:(\w+)$/)?.[1];
  return param && isRecord(param) ? param : undefined;
};
/** Where a world's records show in an answer: rows of the route's own kind by id, any record by a field naming it. */
const seen = (res: Response, world = hidden, kind?: RecordParam) =>
  res.body && typeof res.body === 'object'
    ? [...sightings(res.body.data, world, kind), ...sightings({ ...res.body, data: undefined }, world)]
    : [];
/** An answer with the probed ids written as ID, so a hidden id's refusal can be compared with an absent one's. */
const shape = (res: Response, ids: readonly unknown[]) => {
  let text = JSON.stringify({ status: res.status, error: res.body?.error ?? null });
  for (const id of ids) text = text.replace(new RegExp(`(?<!\\d)${String(id)}(?!\\d)`, 'g'), 'ID');
  return text;
};
const brief = (res: Response) => `${res.status} ${res.text.slice(0, 220)}`;
/**
 * The answers that say "no such record" (404, 400 INVALID_<ENTITY> or INVALID_PARENT, a VALIDATION_ERROR whose
 * reason is INVALID_<ENTITY>), or that refuse the key before any record is read (its tier, or company
 * configuration): nothing else may answer a member's write aimed at a hidden record.
 */
const refusesRecord = (res: Response) => {
  const error = res.body?.error;
  if (res.status === 404) return error?.code === 'NOT_FOUND';
  if (res.status === 400) return /^INVALID_/.test(error?.code) || /^INVALID_/.test(error?.details?.reason ?? '');
  return res.status === 403 && (error?.code === 'FINANCIAL_SCOPE_REQUIRED' || error?.code === 'FORBIDDEN');
};

test("the worlds: the hidden clients are not the member's, and the walk sees the visible world", async () => {
  const clients = await t.db.db.selectFrom('clients').selectAll().where('id', 'in', hidden.ids.client_id).execute();
  for (const c of clients) assert.notEqual(c.default_person_id, member, `client ${c.id} is the member's`);
  const memberships = await t.db.db
    .selectFrom('client_members')
    .select('id')
    .where('client_id', 'in', hidden.ids.client_id)
    .where('person_id', '=', member)
    .execute();
  assert.deepEqual(memberships, []);
  for (const param of Object.keys(CLIENT_RECORDS) as RecordParam[])
    assert.ok(hidden.ids[param].length > 0, `the hidden world has no ${param}`);
  const shown = new Set<string>();
  for (const route of views)
    if (seen(await view(route.url, ''), visible, kindOfRoute(route.url)).length) shown.add(route.url.slice(V3.length));
  const expected = ['/clients', '/contacts', '/tasks', '/projects', '/time-entries', '/client-members', '/notes'];
  expected.push('/attachments', '/documents', '/folders', '/digitizations', '/task-relations', '/search');
  assert.deepEqual(
    expected.filter((url) => !shown.has(url)),
    [],
    'lists on which the walk saw no record of the visible world',
  );
});

test('read walk: no list, id filter or read by id shows a record under a client the member cannot see', async () => {
  const problems: string[] = [];
  for (const route of views) {
    const kind = kindOfRoute(route.url);
    for (const s of seen(await view(route.url, ''), hidden, kind)) problems.push(`GET ${route.url}: ${s}`);
    const filters = route.config.filters ?? [];
    for (const filter of filters) {
      const types =
        filter === 'related_id' && filters.includes('related_type') ? ['client', 'project', 'task', 'note'] : [''];
      for (const type of types) {
        const param = filter === 'related_id' ? `${type}_id` : filter.replace(/^(depends_on|\w+_task)_id$/, 'task_id');
        if (!isRecord(param)) continue;
        const prefix = type ? `related_type=${type}&` : '';
        const absent = await view(route.url, `${prefix}${filter}=${ABSENT}`);
        for (const id of hidden.ids[param]) {
          const res = await view(route.url, `${prefix}${filter}=${id}`);
          const label = `GET ${route.url}?${prefix}${filter}=<hidden ${param} ${id}>`;
          for (const s of seen(res, hidden, kind)) problems.push(`${label}: ${s}`);
          if (shape(res, [id]) !== shape(absent, [ABSENT]) || res.body?.data?.length !== absent.body?.data?.length)
            problems.push(`${label}: ${brief(res)}; an absent id: ${brief(absent)}`);
        }
      }
    }
  }
  for (const route of gets.filter((r) => paramsOf(r.url).some(isRecord)))
    await probePath(route.method, route.url, problems, (res, label) => {
      for (const s of seen(res, hidden, kindOfRoute(route.url))) problems.push(`${label}: ${s}`);
    });
  assert.deepEqual(problems, []);
});

/** An answer without what moves by itself between two reads (timestamps, request ids). */
const strip = (res: Response) =>
  JSON.stringify(res.body, (key, value) => (/(_at|request_id|generated)$/.test(key) ? undefined : value));

test("read walk: the member's lists, reports and reads answer the same before and after the hidden world exists", async () => {
  const after = await Promise.all(views.map((r) => view(r.url, '')));
  const problems = views
    .map((route, i) => [route.url, strip(before[i]!), strip(after[i]!)] as const)
    .filter(([, a, b]) => a !== b)
    .map(([url, a, b]) => `GET ${url}: ${a.slice(0, 300)} -> ${b.slice(0, 300)}`);
  assert.deepEqual(problems, []);
});

/** What a minimal body lacks for a route to reach its reference checks (one action, one way to write the mail). */
const EXTRA: Record<string, Record<string, unknown>> = {
  'POST /tasks/bulk-action': { action: 'delete' },
  'POST /clients/:client_id/emails': { subject: 'Walk', body: 'Walk' },
};
const baseBody = (method: string, url: string) => {
  const schema = bodySchema(method, url);
  if (method === 'GET' || method === 'DELETE') return undefined;
  return { ...(schema ? minimalBody(schema, samples) : {}), ...EXTRA[`${method} ${url.slice(V3.length)}`] };
};

/** How many probes got past the key's tier to a record lookup (the rest are refused before any is read). */
const reached = { paths: 0, bodies: 0 };

/**
 * Fires a route with its record parameters on each hidden record in turn (the others on the hidden world's
 * record, the rest on the visible world's), and requires never a 2xx, and exactly what an absent id answers.
 */
async function probePath(
  method: string,
  url: string,
  problems: string[],
  inspect: (res: Response, label: string) => void = () => {},
): Promise<void> {
  const params = paramsOf(url).filter(isRecord);
  const body = baseBody(method, url);
  const absentValues = { ...visible.made, ...Object.fromEntries(params.map((p) => [p, ABSENT])) };
  const absent = await t.request(method, fill(url, absentValues), { key: 'personal', body });
  if (absent.status !== 403) reached.paths++;
  for (const param of params)
    for (const id of params.length === 1 ? hidden.ids[param] : [Number(hidden.made[param])]) {
      const values = { ...visible.made, ...Object.fromEntries(params.map((p) => [p, hidden.made[p]])), [param]: id };
      const res = await t.request(method, fill(url, values), { key: 'personal', body });
      const label = `${method} ${url} on hidden ${param} ${id}`;
      inspect(res, label);
      const probed = params.map((p) => values[p]);
      if (!refusesRecord(res) || shape(res, probed) !== shape(absent, [ABSENT]))
        problems.push(`${label}: ${brief(res)}; an absent id: ${brief(absent)}`);
    }
}

/** The kind of record a body field names on a route: a folder's parent is a folder, a bulk action's ids tasks. */
function fieldKind(url: string, field: string): RecordParam | undefined {
  const segment = url.slice(V3.length + 1).split('/')[0]!;
  const resource = `${segment.replace(/s$/, '')}_id`;
  if (field === 'parent_id' || field === 'ids') return isRecord(resource) ? resource : undefined;
  const param = field.replace(/s$/, '').replace(/^(depends_on|\w+_task)_id$/, 'task_id');
  return isRecord(param) ? param : param === 'original_client_id' ? 'client_id' : undefined;
}

/** A body naming a hidden record must answer what the same body naming an absent one answers. */
async function probeBody(method: string, url: string, problems: string[]): Promise<void> {
  const schema = bodySchema(method, url);
  if (!schema || method === 'GET') return;
  const target = fill(url, visible.made);
  for (const ref of references(schema, (field) => fieldKind(url, field))) {
    if (!isRecord(ref.kind)) continue;
    const bodyWith = (id: number) =>
      withValue(baseBody(method, url)!, schema, ref.path, ref.many ? [id] : id, ref.with, samples);
    const absent = await t.request(method, target, { key: 'personal', body: bodyWith(ABSENT) });
    if (refusesRecord(absent) && absent.status !== 403) reached.bodies++;
    for (const id of hidden.ids[ref.kind]) {
      const res = await t.request(method, target, { key: 'personal', body: bodyWith(id) });
      const label = `${method} ${url} with ${ref.path.join('.')}=<hidden ${ref.kind} ${id}>`;
      if ((absent.status >= 300 && !refusesRecord(res)) || shape(res, [id]) !== shape(absent, [ABSENT]))
        problems.push(`${label}: ${brief(res)}; an absent id: ${brief(absent)}`);
    }
  }
}

test('write walk: a write aimed at a hidden record, or naming one, answers like an absent id and changes nothing', async (context) => {
  const problems: string[] = [];
  const writes = routes
    .filter((r) => r.method !== 'GET')
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  for (const route of writes) {
    if (paramsOf(route.url).some(isRecord)) await probePath(route.method, route.url, problems);
    await probeBody(route.method, route.url, problems);
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(await snapshot(t, hidden), hiddenRows, 'a write of the walk changed a hidden record');
  context.diagnostic(`routes probed past the tier: ${reached.paths} by path, ${reached.bodies} by body reference`);
  assert.ok(reached.paths >= 30 && reached.bodies >= 20, `too few probes reached a lookup: ${JSON.stringify(reached)}`);
});
