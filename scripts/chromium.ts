// The headless Chromium this repository drives (the web application's browser tests and the benchmark's clients
// screen): the one `npm install` brings inside @sparticuz/chromium, so nothing is downloaded at run time.
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser } from 'playwright-core';

/**
 * The package's flags, less those that would hide what a user's browser enforces (same-origin policy, mixed
 * content) or make one closed context take the browser down with it (--single-process), and with the ones that
 * keep Chromium from calling home on this closed network.
 */
const DROPPED = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);
const ADDED = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Where the browser is: TEST_CHROMIUM when set (scripts/test.ts unpacks it once per run, so parallel test files do
 * not unpack it at the same time), else the package unpacks it now.
 */
export async function chromiumPath(): Promise<string> {
  return process.env.TEST_CHROMIUM || (await chromium.executablePath());
}

export async function launchChromium(): Promise<Browser> {
  const args = [...chromium.args.filter((a) => !DROPPED.has(a)), ...ADDED];
  return playwright.launch({ executablePath: await chromiumPath(), args, headless: true });
}
