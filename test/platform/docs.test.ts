import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERRORS, type ErrorCode } from '../../src/platform/errors.ts';

const statusOfCode = (code: string) => ERRORS[code as ErrorCode];
import { createTestApp } from '../helpers.ts';

const t = await createTestApp();
const anonymous = { key: null, company: null } as const;

type Operation = {
  operationId?: string;
  tags?: string[];
  'x-scope'?: string;
  'x-preview'?: boolean;
  'x-error-codes'?: string[];
  responses: Record<string, { description?: string }>;
};
const doc = (await t.request('GET', '/api/v3/openapi.json', anonymous)).body as {
  openapi: string;
  info: { title: string; version: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
);

/** Routes under /api/v3 that serve the reference itself, not the API. */
const DOCS_ROUTE = /^\/api\/v3\/((docs|redoc)(\/|\*|$)|openapi\.json$|llms(-full)?\.txt$)/;

/** Every METHOD + full path the app serves, with its declared access rules (HEAD is implied by GET). */
const appRoutes = () => t.app.routeTable.filter((r) => r.method !== 'HEAD');

const toOpenApiPath = (url: string) => url.slice('/api/v3'.length).replace(/:(\w+)/g, '{$1}');

test('the description is OpenAPI 3.1 titled "API v3", version 3.0.0, with the auth headers and the session cookie as security schemes', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.title, 'API v3');
  assert.equal(doc.info.version, '3.0.0');
  assert.deepEqual(doc.servers, [{ url: '/api/v3' }]);
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'company', 'session']);
  assert.ok(operations.length > 5);
});

test('every v3 route of the app is in the document with operationId, x-scope and x-preview', () => {
  const routes = appRoutes().filter((r) => r.url.startsWith('/api/v3/') && !DOCS_ROUTE.test(r.url));
  assert.ok(
    routes.some((r) => r.url === '/api/v3/clients' && r.method === 'POST'),
    'the route walk found the routes',
  );
  for (const { method, url, config } of routes) {
    const op = doc.paths[toOpenApiPath(url)]?.[method.toLowerCase()];
    assert.ok(op, `${method} ${url} is missing from the OpenAPI document`);
    assert.match(op.operationId ?? '', /^[a-z][A-Za-z0-9]+$/, `${method} ${url} operationId`);
    assert.ok(op.tags?.length, `${method} ${url} has a tag`);
    assert.match(
      op['x-scope'] ?? '',
      /^(none|read|write|admin|financials|write:attachments)$/,
      `${method} ${url} x-scope`,
    );
    assert.equal(typeof op['x-preview'], 'boolean', `${method} ${url} x-preview`);
    // The document states what the platform enforces for the route.
    if (config.tier) assert.equal(op['x-scope'], config.tier, `${method} ${url} x-scope matches the enforced tier`);
    assert.equal(op['x-preview'], config.preview ?? false, `${method} ${url} x-preview matches the route`);
  }
  // And nothing in the document that the app does not serve.
  const served = new Set(routes.map((r) => `${r.method} ${toOpenApiPath(r.url)}`));
  for (const { method, path } of operations)
    assert.ok(served.has(`${method} ${path}`), `${method} ${path} is documented but not served`);
});

test('operationIds are unique', () => {
  const ids = operations.map((o) => o.op.operationId);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
  );
});

test('each operation lists its error codes in the response descriptions, under their HTTP status', () => {
  for (const { method, path, op } of operations) {
    const where = `${method} ${path}`;
    for (const [status, response] of Object.entries(op.responses)) {
      assert.ok(
        response.description && response.description !== 'Default Response',
        `${where}: ${status} has a real description`,
      );
    }
    for (const code of op['x-error-codes'] ?? []) {
      const description = op.responses[String(statusOfCode(code))]?.description ?? '';
      assert.ok(
        description.split(', ').includes(code),
        `${where}: ${code} missing from its ${statusOfCode(code)} response`,
      );
    }
    if (op['x-scope'] === 'none') continue;
    assert.match(op.responses['401']?.description ?? '', /MISSING_AUTH.*UNAUTHORIZED/, `${where}: 401 codes`);
    assert.match(op.responses['400']?.description ?? '', /MISSING_COMPANY/, `${where}: 400 codes`);
    assert.match(op.responses['403']?.description ?? '', /HTTPS_REQUIRED/, `${where}: 403 codes`);
    assert.match(op.responses['429']?.description ?? '', /RATE_LIMIT_EXCEEDED/, `${where}: 429 codes`);
    if (method !== 'GET')
      assert.match(
        op.responses['403']?.description ?? '',
        /SUBSCRIPTION_READ_ONLY/,
        `${where}: writes name the subscription gate`,
      );
    if (op['x-scope'] === 'financials')
      assert.match(op.responses['403']?.description ?? '', /FINANCIAL_SCOPE_REQUIRED/, where);
  }
  const health = doc.paths['/health']?.get;
  assert.ok(
    health && health['x-scope'] === 'none' && health.responses['503'],
    'GET /health is documented with its 503',
  );
});

test('every code a route lists is in the error catalogue, covered POSTs list the idempotency codes, lists their cursor and filter codes', () => {
  for (const { method, path, op } of operations) {
    const codes = op['x-error-codes'] ?? [];
    for (const code of codes) assert.ok(code in ERRORS, `${method} ${path}: ${code} is in the catalogue`);
    const route = t.app.routeTable.find((r) => r.method === method && toOpenApiPath(r.url) === path);
    if (route?.config.idempotent) {
      assert.ok(
        codes.includes('IDEMPOTENCY_CONFLICT') && codes.includes('IDEMPOTENCY_KEY_REUSED'),
        `${method} ${path} documents idempotency`,
      );
    }
  }
  const folder = doc.paths['/clients/{client_id}/documents-folder']?.post;
  assert.ok(
    folder?.['x-error-codes']?.includes('IDEMPOTENCY_KEY_REUSED'),
    'the covered documents-folder path documents its idempotency codes',
  );
  assert.match(doc.paths['/tasks']?.get?.responses['400']?.description ?? '', /INVALID_CURSOR.*UNKNOWN_FILTER_FIELD/);
  assert.match(doc.paths['/tasks']?.get?.responses['422']?.description ?? '', /INVALID_FILTER_VALUE/);
  // Thrown as 409, documented as 409 (it once was documented as 400).
  const transition = operations.find((o) => o.op['x-error-codes']?.includes('INVALID_STATUS_TRANSITION'));
  assert.ok(transition, 'some route answers INVALID_STATUS_TRANSITION');
  assert.match(transition.op.responses['409']?.description ?? '', /INVALID_STATUS_TRANSITION/);
});

test('preview operations answer with X-Api-Preview: true, stable ones without it', async () => {
  const stable = await t.request('GET', '/clients', { key: 'read' });
  assert.equal(stable.status, 200);
  assert.equal(stable.headers.get('x-api-preview'), null);
  for (const { method, path } of operations.filter((o) => o.op['x-preview'])) {
    // Even a refused request (here: no credentials) is marked, so a client learns the resource is preview.
    const res = await t.request(method, path.replace(/\{\w+\}/g, '1'), anonymous);
    assert.equal(res.headers.get('x-api-preview'), 'true', `${method} ${path}`);
  }
});

/** Every src/href of a page: all must be served by us (relative), and each must load. */
async function assertAssetsLocal(pagePath: string, html: string): Promise<string[]> {
  const refs = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(refs.length > 0, `${pagePath} references its assets`);
  const base = new URL(pagePath.endsWith('/') ? pagePath : `${pagePath}/`, 'http://local');
  const bodies: string[] = [];
  for (const ref of refs) {
    assert.doesNotMatch(ref, /^(https?:)?\/\//, `${pagePath} loads ${ref} from elsewhere`);
    const url = ref.startsWith('/') ? ref : new URL(ref, base).pathname;
    const asset = await t.request('GET', url, anonymous);
    assert.equal(asset.status, 200, `${url} is served`);
    bodies.push(asset.text);
    if (url.endsWith('.css'))
      assert.doesNotMatch(
        asset.text,
        /url\(\s*['"]?(https?:)?\/\/|@import\s+(url\()?['"]?https?:/,
        `${url} pulls remote resources`,
      );
  }
  return bodies;
}

// Hosts a page would fetch code, styles, fonts or images from.
const CDN =
  /https?:\/\/[^"'`\s]*(cdn\.|unpkg\.com|jsdelivr|cdnjs|fonts\.googleapis|fonts\.gstatic|googletagmanager|google-analytics)/;

test('GET /docs (Swagger UI) works offline: every asset comes from the installed package', async () => {
  const page = await t.request('GET', '/api/v3/docs', anonymous);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.doesNotMatch(page.text, /https?:\/\//, 'no absolute URL in the page');
  const assets = await assertAssetsLocal('/api/v3/docs', page.text);
  for (const body of assets) assert.doesNotMatch(body, CDN);
  const initializer = assets.find((body) => body.includes('SwaggerUIBundle.presets'));
  assert.ok(initializer, 'the initializer script is served');
  // The only remote fetch Swagger UI makes by itself is the online validator badge.
  assert.match(initializer, /validatorUrl: null/);
  const spec = await t.request('GET', '/api/v3/docs/json', anonymous);
  assert.deepEqual(spec.body, doc, 'Swagger UI shows the same document');
  const shortcut = await t.request('GET', '/docs', anonymous);
  assert.equal(shortcut.status, 302);
  assert.equal(shortcut.headers.get('location'), '/api/v3/docs');
});

// https:// strings in the Redoc bundle that nothing loads: anchors (the footer link), error-message
// documentation links, and the registry API used only for registry $refs (the document has none).
const REDOC_INERT =
  /^https:\/\/((redocly\.com|redoc\.ly|github\.com|git\.io|reactjs\.org|marked\.js\.org|stackoverflow\.com)\/|api\.\$\{|$)/;

test('GET /redoc works offline: no CDN, the script is served with charset=utf-8', async () => {
  const page = await t.request('GET', '/api/v3/redoc', anonymous);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.doesNotMatch(page.text, /https?:\/\//);
  assert.match(page.text, /<script src="\/api\/v3\/redoc\/redoc\.standalone\.js" charset="utf-8">/);
  assert.match(page.text, /spec-url="\/api\/v3\/openapi\.json"/);
  await assertAssetsLocal('/api/v3/redoc', page.text);
  const script = await t.request('GET', '/api/v3/redoc/redoc.standalone.js', anonymous);
  assert.equal(script.status, 200);
  assert.equal(script.headers.get('content-type'), 'application/javascript; charset=utf-8');
  assert.ok(script.text.length > 100_000, 'the real bundle');
  assert.ok(!script.text.includes('cdn.redoc.ly'), 'the logo is not fetched from the CDN');
  assert.doesNotMatch(script.text, CDN);
  const urls = [...script.text.matchAll(/https:\/\/[^"'`\s)\\]*/g)].map((m) => m[0]);
  assert.deepEqual(
    urls.filter((u) => !REDOC_INERT.test(u)),
    [],
    'every https URL in the bundle is inert',
  );
  assert.ok(script.text.includes('/api/v3/redoc/logo.svg'));
  const logo = await t.request('GET', '/api/v3/redoc/logo.svg', anonymous);
  assert.equal(logo.status, 200);
  assert.match(logo.headers.get('content-type') ?? '', /^image\/svg\+xml/);
  assert.equal((await t.request('GET', '/redoc', anonymous)).headers.get('location'), '/api/v3/redoc');
});

test('GET /llms.txt and /llms-full.txt are generated from the document and name every operation', async () => {
  const short = await t.request('GET', '/api/v3/llms.txt', anonymous);
  const full = await t.request('GET', '/api/v3/llms-full.txt', anonymous);
  for (const res of [short, full]) {
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.match(res.text, /^# API v3 \(3\.0\.0\)/);
  }
  for (const { method, path, op } of operations) {
    assert.ok(short.text.includes(`- ${method} /api/v3${path}: `), `llms.txt lists ${method} ${path}`);
    assert.ok(full.text.includes(`## ${method} /api/v3${path}\n`), `llms-full.txt details ${method} ${path}`);
    assert.ok(full.text.includes(`Scope: ${op['x-scope']}`));
  }
  assert.ok(full.text.length > short.text.length);
  assert.ok(full.text.includes('Request body schema:'), 'the full text carries schemas');
  assert.equal((await t.request('GET', '/llms.txt', anonymous)).headers.get('location'), '/api/v3/llms.txt');
});
