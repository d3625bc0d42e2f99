import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import * as fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertContained, openPage } from '../web/browser.ts';
import { makeDataDir, postmasterPid, postmasters, running, startService, waitUntilStopped } from './support.ts';

const CURL =
  /curl -s -H 'X-Service-Company: ([0-9a-f-]{36})' -H 'X-API-Key: (svc_live_\S+)' (http:\/\/127\.0\.0\.1:(\d+))\/api\/v3\/clients$/;

const dataDir = await makeDataDir();

interface Demo {
  companyId: string;
  key: string;
  baseUrl: string;
}
let demo: Demo | undefined;

const headers = (d: Demo) => ({ 'x-service-company': d.companyId, 'x-api-key': d.key });

/** A POST whose body arrives in two parts, so it is still in flight when the signal comes. */
function slowPost(url: string, d: Demo, body: string) {
  const req = http.request(url, {
    method: 'POST',
    headers: { ...headers(d), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 4));
  return { finish: () => req.end(body.slice(4)), response };
}

test(
  'first start provisions a demo company, prints working credentials (key and web sign-in), and SIGTERM drains then stops postgres',
  { timeout: 120_000 },
  async () => {
    const service = startService(dataDir, { LOG_LEVEL: 'info' });
    const [, companyId, key, baseUrl, port] = await service.waitFor(CURL);
    demo = { companyId: companyId!, key: key!, baseUrl: baseUrl! };
    assert.notEqual(Number(port), 0, 'PORT=0 prints the port actually bound');
    assert.ok(
      service.output.some((l) => l.includes(`embedded PostgreSQL data lives in ${path.join(dataDir, 'pg')}`)),
      'start-up says where the data lives',
    );
    assert.ok(service.output.some((l) => l.includes(`listening on ${baseUrl}`)));
    // The defaults: a request pool of 20, webhook deliveries 8 × 2 + 2, one cache listener.
    await service.waitFor(
      /^database connections: at most 39 \(requests and jobs 20, webhook deliveries 18, cache listener 1\)$/,
    );

    const list = await fetch(`${baseUrl}/api/v3/clients`, { headers: headers(demo) });
    assert.equal(list.status, 200);
    assert.deepEqual(((await list.json()) as { data: unknown[] }).data, []);
    const file = path.join(dataDir, 'demo-credentials.json');
    const saved = JSON.parse(await fs.readFile(file, 'utf8'));
    assert.match(saved.password, /^[A-Za-z0-9]{20}$/, 'a generated password of 20 characters');
    assert.deepEqual(saved, {
      company_id: companyId,
      api_key: key,
      base_url: baseUrl,
      web_url: baseUrl,
      email: 'owner@demo.example',
      password: saved.password,
    });
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600, 'the key file is private');
    for (const line of [`Sign in to the web application at ${baseUrl}/`, '  e-mail:     owner@demo.example'])
      assert.ok(service.output.includes(line), `prints "${line}"`);
    assert.ok(service.output.includes(`  password:   ${saved.password}`), 'prints the password');

    // The printed sign-in works, and the session reads the demo company like the key does.
    const signIn = await fetch(`${baseUrl}/api/v3/auth/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@demo.example', password: saved.password }),
    });
    assert.equal(signIn.status, 201);
    const view = ((await signIn.json()) as { data: { companies: Array<{ id: string; role: string }> } }).data;
    assert.deepEqual(
      view.companies.map((c) => [c.id, c.role]),
      [[companyId, 'owner']],
    );
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const bySession = await fetch(`${baseUrl}/api/v3/clients`, {
      headers: { cookie, 'x-service-company': companyId! },
    });
    assert.equal(bySession.status, 200);

    const pgPid = await postmasterPid(dataDir);
    assert.ok(pgPid && (await running(pgPid)));
    const inFlight = slowPost(`${baseUrl}/api/v3/clients`, demo, JSON.stringify({ name: 'Drained Ltd' }));
    await sleep(200);
    service.child.kill('SIGTERM');
    await service.waitFor(/shutting down: draining in-flight requests/);
    await assert.rejects(
      fetch(`${baseUrl}/api/v3/clients`, { headers: headers(demo) }),
      'no new connections while draining',
    );
    inFlight.finish();
    const drained = await inFlight.response;
    assert.equal(drained.status, 201, drained.body);
    assert.equal(JSON.parse(drained.body).data.name, 'Drained Ltd');

    assert.deepEqual(await service.exited, { code: 0, signal: null });
    assert.ok(service.output.some((l) => l.includes('embedded postgres stopped')));
    await assert.rejects(fs.access(path.join(dataDir, 'pg', 'postmaster.pid')));
    assert.equal(await waitUntilStopped(pgPid), true, 'the postmaster process is gone');
    assert.deepEqual(await postmasters(dataDir), []);
  },
);

test(
  'a second start on the same directory keeps the data and does not provision again',
  { timeout: 120_000 },
  async () => {
    assert.ok(demo, 'runs after the first start');
    const credentials = await fs.readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8');
    const service = startService(dataDir);
    const [, baseUrl] = await service.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+) /);
    await service.waitFor(/demo credentials from the first start/);
    assert.ok(!service.output.some((l) => /Demo company provisioned|curl /.test(l)), service.output.join('\n'));
    assert.equal(
      await fs.readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'),
      credentials,
      'credentials file untouched',
    );

    const list = await fetch(`${baseUrl}/api/v3/clients`, { headers: headers(demo) });
    assert.equal(list.status, 200, "the first start's key still works");
    assert.deepEqual(
      ((await list.json()) as { data: Array<{ name: string }> }).data.map((c) => c.name),
      ['Drained Ltd'],
      'the drained request was committed',
    );

    const pgPid = await postmasterPid(dataDir);
    service.child.kill('SIGINT');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
    assert.equal(await waitUntilStopped(pgPid!), true);
    assert.deepEqual(await postmasters(dataDir), []);
  },
);

test(
  'a person with the README and the printed sign-in opens the app, creates a client through labelled controls, and the API finds it',
  { timeout: 120_000 },
  async () => {
    assert.ok(demo, 'runs after the first start');
    const saved = JSON.parse(await fs.readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    const service = startService(dataDir);
    const [, baseUrl] = await service.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+) \(web application: /);
    const watched = await openPage(baseUrl!);
    const { page } = watched;
    try {
      await page.goto('/');
      await page.getByLabel('E-mail').fill(saved.email);
      await page.getByLabel('Password').fill(saved.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New client' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New client' });
      await dialog.getByLabel('Name').fill('Found Through The API OÜ');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('heading', { name: 'Found Through The API OÜ', level: 1 }).waitFor();
      assertContained(watched);
    } finally {
      await watched.context.close();
    }
    const found = await fetch(`${baseUrl}/api/v3/clients?q=${encodeURIComponent('Found Through')}`, {
      headers: { 'x-service-company': saved.company_id, 'x-api-key': saved.api_key },
    });
    assert.equal(found.status, 200);
    assert.deepEqual(
      ((await found.json()) as { data: Array<{ name: string }> }).data.map((c) => c.name),
      ['Found Through The API OÜ'],
    );
    service.child.kill('SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
  },
);
