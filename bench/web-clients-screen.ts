// Scenario 19: the clients screen of a company with 10,000 clients in headless Chromium (scripts/chromium.ts), from
// navigation to /clients until the first page's rows are on screen, measured by the page's own clock.
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { openDatabase } from '../src/db/database.ts';
import { linkAccount } from '../src/modules/members/index.ts';
import { setAccountPassword } from '../src/modules/sessions/index.ts';
import { launchChromium } from '../scripts/chromium.ts';
import { guarded, type Bench } from './harness.ts';
import { largest, missing } from './scenario-kit.ts';
import type { Scenario } from './scenarios.ts';

const CLIENTS = 10_000;
/** The clients screen's page size (web/src/screens/clients/ClientsList.tsx). */
const PAGE_ROWS = 25;
const RUNS = 9;
const LIMIT_MS = 1000;
const PASSWORD = 'bench horse battery staple';
const ROWS_TIMEOUT_MS = 30_000;

/** An account with a password for the member of `personId` in the largest company. */
export async function memberAccount(
  bench: Bench,
  personId: number,
  label: string,
): Promise<{ email: string; password: string }> {
  const database = openDatabase(bench.databaseUrl, { max: 1, applicationName: 'bench-harness' });
  try {
    const email = `${label}@bench.example`;
    const accountId = await linkAccount(database.db, { email, companyId: largest(bench).id, personId });
    await setAccountPassword(database.db, accountId, PASSWORD);
    return { email, password: PASSWORD };
  } finally {
    await database.close();
  }
}

/**
 * The largest company's clients brought up to 10,000 when the scale seeded fewer (scale 1 has exactly that many):
 * plain active clients without contacts, named so they sort after the seeded ones. Answers how many were added.
 */
async function topUpClients(bench: Bench): Promise<{ before: number; added: number }> {
  const client = new pg.Client({ connectionString: bench.databaseUrl, application_name: 'bench-harness' });
  await client.connect();
  try {
    const companyId = largest(bench).id;
    const { n } = (await client.query('select count(*)::int as n from clients where company_id = $1', [companyId]))
      .rows[0];
    if (n >= CLIENTS) return { before: n, added: 0 };
    await client.query(
      `insert into clients (company_id, name, status, locale_code, address_country_code)
       select $1, 'Web bench client ' || lpad(i::text, 5, '0'), 'active', 'en', 'ee' from generate_series(1, $2::int) as i`,
      [companyId, CLIENTS - n],
    );
    await client.query('analyze clients');
    return { before: n, added: CLIENTS - n };
  } finally {
    await client.end();
  }
}

async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/clients$/);
}

interface Timing {
  /** When the first page's rows were there, by the page's clock (ms since the navigation started). */
  shown: number;
  /** When the list's answer (GET /api/v3/clients) had arrived, by the same clock. */
  listed: number;
}

/** One full navigation to /clients, checked on every frame until the first page's rows are there. */
async function timeClientsScreen(page: Page): Promise<Timing> {
  await page.goto('/clients', { waitUntil: 'commit' });
  // Runs in the page (a function, not a string: the app's CSP forbids eval); this project's types have no DOM.
  const handle = await page.waitForFunction(
    (rows) => {
      const page = globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } };
      if (page.document.querySelectorAll('[role="grid"] .table-row').length < rows) return false;
      const list = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/v3/clients')) as
        { responseEnd: number } | undefined;
      return { shown: performance.now(), listed: list?.responseEnd ?? 0 };
    },
    PAGE_ROWS,
    { polling: 'raf', timeout: ROWS_TIMEOUT_MS },
  );
  return (await handle.jsonValue()) as Timing;
}

/** Signed in through the form; one navigation with an empty cache (the session's cookie only), then warm ones. */
async function navigations(browser: Browser, baseURL: string, account: { email: string; password: string }) {
  const options = { baseURL, viewport: { width: 1280, height: 800 }, locale: 'en-GB' };
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await signIn(page, account);
  const fresh = await browser.newContext({ ...options, storageState: await context.storageState() });
  const cold = await timeClientsScreen(await fresh.newPage());
  await fresh.close();
  const warm: Timing[] = [];
  for (let run = 0; run < RUNS; run++) warm.push(await timeClientsScreen(page));
  await context.close();
  return { cold, warm };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

const LABEL = `19 web: clients screen, ${CLIENTS.toLocaleString('en')} clients, navigation to first page`;
export const clientsScreen: Scenario = {
  id: 19,
  name: 'web-clients-screen',
  run: (bench) =>
    guarded(bench, LABEL, async () => {
      const clients = await topUpClients(bench);
      const company = largest(bench);
      const account = await memberAccount(bench, company.people.first, `bench-owner-${Date.now().toString(36)}`);
      let browser: Browser;
      try {
        browser = await launchChromium();
      } catch (error) {
        return void missing(bench, LABEL, `failed: no browser (${(error as Error).message.split('\n')[0]})`);
      }
      try {
        const { cold, warm } = await navigations(browser, `http://127.0.0.1:${bench.service.port}`, account);
        const shown = warm.map((t) => t.shown);
        bench.log(`    cold ${ms(cold.shown)}; warm ${shown.map((t) => t.toFixed(0)).join(', ')} ms`);
        const p50 = median(shown);
        const seeded = clients.added
          ? `seeded ${clients.added} clients beside the scale's ${clients.before}`
          : `${clients.before} seeded clients`;
        bench.rows.push({
          scenario: LABEL,
          target: 'service',
          status: 'ok',
          p50,
          goal: `p50 < ${LIMIT_MS} ms`,
          met: p50 < LIMIT_MS,
          note: `${RUNS} navigations signed in as the owner: max ${ms(Math.max(...shown))}, list answered at p50 ${ms(median(warm.map((t) => t.listed)))}; empty cache ${ms(cold.shown)} (list ${ms(cold.listed)}); ${seeded}`,
        });
      } finally {
        await browser.close();
      }
    }),
};
