// The README's screenshots, made from the real application: `npm start` as a new user runs it (a throw-away data
// folder, the demo company), some work entered through API v3 with the demo key, then the demo owner signs in
// in the Chromium of @sparticuz/chromium and each main screen is saved to docs/screenshots/.
//   node scripts/screenshots.ts [--dark]
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs', 'screenshots');

interface Demo {
  company_id: string;
  api_key: string;
  web_url: string;
  email: string;
  password: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startService(dataDir: string, port: number) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, SVC_DATA_DIR: dataDir, PORT: String(port), SVC_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const file = path.join(dataDir, 'demo-credentials.json');
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const demo = await readFile(file, 'utf8').then(
      (text) => JSON.parse(text) as Demo,
      () => undefined,
    );
    if (
      demo &&
      (await fetch(`${demo.web_url}/api/v3/health`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return { child, demo };
    await sleep(200);
  }
  throw new Error('the service did not start within 2 minutes');
}

function apiOf(demo: Demo) {
  return async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${demo.web_url}/api/v3${route}`, {
      method,
      headers: { 'x-service-company': demo.company_id, 'x-api-key': demo.api_key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { id: number; person_id?: number } }).data;
  };
}

const CLIENTS: Array<[string, string, string, string]> = [
  ['Nordlicht Architects GmbH', 'active', 'Hamburg', 'de'],
  ['Acme Consulting OÜ', 'active', 'Tallinn', 'ee'],
  ['Baltic Timber AS', 'active', 'Tartu', 'ee'],
  ['Café Müller & Söhne', 'prospect', 'München', 'de'],
  ['Helsinki Design Oy', 'active', 'Helsinki', 'fi'],
  ['Riverside Dental Clinic', 'active', 'Riga', 'lv'],
  ['Studio Verde SRL', 'prospect', 'Milano', 'it'],
  ['Vilnius Freight UAB', 'inactive', 'Vilnius', 'lt'],
];

/** A small, believable firm: clients with contacts, two colleagues, and requests waiting for approval. */
async function seed(demo: Demo): Promise<void> {
  const api = apiOf(demo);
  const people = ['Mari Tamm', 'Jonas Becker', 'Aino Virtanen', 'Luca Bianchi'];
  for (const [i, [name, status, city, country]] of CLIENTS.entries()) {
    const client = await api('POST', '/clients', { name, status, address_city: city, address_country_code: country });
    const [first, last] = people[i % people.length]!.split(' ');
    await api('POST', '/contacts', {
      client_id: client.id,
      name: first,
      surname: last,
      email: `${first!.toLowerCase()}@${name
        .split(' ')[0]!
        .toLowerCase()
        .replace(/[^a-z]/g, '')}.example`,
    });
  }
  const colleague = await api('POST', '/members', {
    name: 'Kristiina',
    surname: 'Kask',
    email: 'kristiina@demo.example',
  });
  // Dates in this month, so the month view shows them beside the approvals waiting.
  const day = (n: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), n));
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const person_id = colleague.person_id;
  await api('POST', '/calendar', {
    type: 'vacation',
    person_id,
    date_from: iso(day(17)),
    date_until: iso(day(21)),
    description: 'Family trip',
  });
  await api('POST', '/calendar', { type: 'sick_leave', person_id, date_from: iso(day(3)), date_until: iso(day(4)) });
  await api('POST', '/calendar', { type: 'flextime', person_id, date_from: iso(day(10)), description: 'Long weekend' });
}

async function shoot(page: Page, name: string, ready: string): Promise<void> {
  await page.getByRole('heading', { name: ready, level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

async function main(): Promise<void> {
  const dark = process.argv.includes('--dark');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-screens-'));
  const { child, demo } = await startService(dataDir, await freePort());
  const browser = await launchChromium();
  try {
    await seed(demo);
    await mkdir(OUT, { recursive: true });
    const context = await browser.newContext({
      baseURL: demo.web_url,
      viewport: { width: 1280, height: 800 },
      colorScheme: dark ? 'dark' : 'light',
      locale: 'en-GB',
    });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail').fill(demo.email);
    await shoot(page, 'sign-in', 'Sign in');
    await page.getByLabel('Password').fill(demo.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await shoot(page, 'clients', 'Clients');
    await page.getByRole('row', { name: new RegExp(CLIENTS[0]![0]) }).click();
    await shoot(page, 'client', CLIENTS[0]![0]);
    for (const [route, heading] of [
      ['/contacts', 'Contacts'],
      ['/team', 'Team'],
      ['/calendar', 'Calendar'],
    ] as const) {
      await page.getByRole('link', { name: heading }).click();
      await page.waitForURL(new RegExp(`${route}$`));
      await shoot(page, route.slice(1), heading);
    }
    await context.close();
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
