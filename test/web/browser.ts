// A real Chromium for the web application's tests, driven by playwright-core (scripts/chromium.ts: the browser that
// `npm install` brings inside @sparticuz/chromium, with the flags that keep it honest and quiet).
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/chromium.ts';

let shared: Promise<Browser> | undefined;
// Registered when a test file imports this module, so it runs after the file's last test (not after the first).
after(async () => (await shared)?.close());

export async function browser(): Promise<Browser> {
  shared ??= launchChromium();
  return shared;
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Requests the page made to any origin but the app's own, and Content-Security-Policy violations. */
  foreign: string[];
  violations: string[];
  consoleErrors: string[];
}

/** A fresh browser profile (no cookies) on the app, watching for foreign requests and CSP violations. */
export async function openPage(baseUrl: string, options: { viewport?: { width: number; height: number } } = {}) {
  const context = await (
    await browser()
  ).newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    locale: 'en-GB',
  });
  const page = await context.newPage();
  const origin = new URL(baseUrl).origin;
  const watched: Watched = { context, page, foreign: [], violations: [], consoleErrors: [] };
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) watched.foreign.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') watched.consoleErrors.push(message.text());
    if (message.text().includes('Content Security Policy')) watched.violations.push(message.text());
  });
  return watched;
}

/**
 * axe-core on what the page shows now: no serious or critical violation. react-aria's live announcer is left out:
 * it is a visually hidden log whose short-lived entries point at the element that caused them, which the previous
 * screen may already have removed (axe then reports an image without text until the entry expires, 7 s later).
 */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).exclude('[data-live-announcer]').analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html}`).join(', ')}`,
    );
  assert.deepEqual(bad, [], `accessibility violations on ${label}`);
}

/** Nothing went to another host and no CSP violation happened (checked at the end of a flow). */
export function assertContained(watched: Watched): void {
  assert.deepEqual(watched.foreign, [], 'requests to other hosts');
  assert.deepEqual(watched.violations, [], 'Content-Security-Policy violations');
}

/** Waits until the locator matches exactly `count` elements (a list re-rendered after a query). */
export async function waitForCount(locator: Locator, count: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = await locator.count();
    if (now === count) return;
    if (Date.now() > until) assert.fail(`expected ${count} matches, still ${now}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
