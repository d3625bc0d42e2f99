// Keeps scenario 17 (first-screen JavaScript) honest: what it counts is what index.html makes the browser load
// before anything renders, and every one of those files is there in the build. The benchmarks never run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { firstScreenScripts } from '../../bench/scenarios-web.ts';
import { defaultWebDir } from '../../src/platform/web-host.ts';

test('the first screen is the module entry and its modulepreloads, in either attribute order, nothing else', () => {
  const html = `<script type="module" crossorigin src="/assets/index-a.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-b.js">
    <link href="/assets/Button-c.js" rel="modulepreload">
    <link rel="stylesheet" href="/assets/index-d.css">
    <link rel="icon" href="/favicon.svg">
    <script src="https://elsewhere.example/x.js"></script>`;
  assert.deepEqual(firstScreenScripts(html), ['/assets/index-a.js', '/assets/runtime-b.js', '/assets/Button-c.js']);
});

test("the built index.html's first-screen scripts all exist in dist/web", async () => {
  const dir = defaultWebDir();
  const scripts = firstScreenScripts(await readFile(path.join(dir, 'index.html'), 'utf8'));
  assert.ok(scripts.length >= 1, 'an entry at least');
  for (const src of scripts) await access(path.join(dir, src));
});
