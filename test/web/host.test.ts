// The service serves the web application at `/` (src/platform/web-host.ts): the built files with strict
// security headers, index.html for the application's own routes, and the API's 404s left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';

const t = await createTestApp({}, {}, { web: true });

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}${path}`, { headers });

test('the application page and its client-side routes answer index.html with strict security headers', async () => {
  for (const path of ['/', '/sign-in', '/clients/12', '/team?x=1']) {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/, 'no inline or foreign scripts');
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    const html = await response.text();
    assert.match(html, /<div id="root"><\/div>/);
    assert.doesNotMatch(html, /<script>|<style>|style="/, 'nothing inline in the page');
    assert.doesNotMatch(html, /https?:\/\//, 'no address of another host in the page');
  }
});

test('hashed assets are cached for good and sent compressed when the browser accepts it', async () => {
  const html = await (await get('/')).text();
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  assert.ok(script, html);
  const plain = await fetch(`${t.baseUrl}${script}`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal(plain.status, 200);
  assert.match(plain.headers.get('content-type') ?? '', /javascript/);
  assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const bytes = (await plain.arrayBuffer()).byteLength;
  const br = await fetch(`${t.baseUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
  assert.equal(br.headers.get('content-encoding'), 'br');
  assert.equal((await br.arrayBuffer()).byteLength, bytes, 'fetch decodes the brotli body to the same script');
});

test('the APIs keep their own answers: JSON 404s, never the application page', async () => {
  for (const path of [
    '/api/v3/no-such-route',
    '/api/v1.0/nothing',
    '/operator/x',
    // Without SVC_METRICS_TOKEN: not a page either (decision 0059).
    '/metrics',
    '/assets/missing-123.js',
    '/x.png',
  ]) {
    const response = await get(path);
    assert.equal(response.status, 404, path);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/, path);
  }
  const health = await get('/api/v3/health');
  assert.equal(health.status, 200);
  const post = await fetch(`${t.baseUrl}/clients`, { method: 'POST' });
  assert.equal(post.status, 404, 'only GET reaches the application page');
});
