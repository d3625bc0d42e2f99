// The Chromium that `npm install` brings inside @sparticuz/chromium (no download at run time), launched headless
// by playwright-core for the browser tests, the screenshots of the README and the web bench.
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser } from 'playwright-core';

/**
 * The package's flags, less those that would hide what a user's browser enforces (same-origin policy, mixed
 * content) or make one closed context take the browser down with it (--single-process), and with the ones
 * that keep Chromium from calling home on a closed network.
 */
const DROPPED = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);
const ADDED = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The browser's path: TEST_CHROMIUM when a caller unpacked it already, else unpacked now (about 4.5 s once). */
export async function chromiumPath(): Promise<string> {
  return process.env.TEST_CHROMIUM || (await chromium.executablePath());
}

export async function launchChromium(): Promise<Browser> {
  const args = [...chromium.args.filter((a) => !DROPPED.has(a)), ...ADDED];
  return playwright.launch({ executablePath: await chromiumPath(), args, headless: true });
}
