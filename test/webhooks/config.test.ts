import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { warnAboutWebhookConfig } from '../../src/background/index.ts';
import { memoryLog } from './setup.ts';

test('webhook settings: defaults, decimals for short test delays, and refusals', () => {
  const defaults = loadConfig({});
  assert.deepEqual(defaults.webhooks, {
    enabled: true,
    allowPrivate: false,
    retryDelaysMs: [60_000, 300_000, 1_800_000],
    rate: 10,
    maxDeferMs: 600_000,
    timeoutMs: 10_000,
    concurrency: 8,
    pollMs: 1000,
    inServer: true,
    legacy: { retryDelaysMs: [5000, 30_000], secret: undefined },
  });
  assert.equal(defaults.smtpUrl, undefined);
  const custom = loadConfig({
    SVC_WEBHOOKS_ENABLED: 'false',
    SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
    SVC_WEBHOOK_RETRY_DELAYS: '0.05, 1,2.5',
    SVC_WEBHOOK_RATE: '200',
    SVC_WEBHOOK_MAX_DEFER: '0.5',
    SVC_WEBHOOK_TIMEOUT: '0.2',
    SVC_WEBHOOK_CONCURRENCY: '3',
    SVC_WEBHOOK_POLL: '0.05',
    SVC_WEBHOOK_IN_SERVER: 'no',
    SMTP_URL: 'smtp://mail.example:25',
    SVC_MAIL_FROM: 'Hooks <h@example.com>',
    SVC_LEGACY_WEBHOOK_RETRY_DELAYS: '0.5,2',
    SVC_LEGACY_WEBHOOK_SECRET: 'v1-key',
  });
  assert.deepEqual(custom.webhooks, {
    enabled: false,
    allowPrivate: true,
    retryDelaysMs: [50, 1000, 2500],
    rate: 200,
    maxDeferMs: 500,
    timeoutMs: 200,
    concurrency: 3,
    pollMs: 50,
    inServer: false,
    legacy: { retryDelaysMs: [500, 2000], secret: 'v1-key' },
  });
  assert.equal(custom.smtpUrl, 'smtp://mail.example:25');
  assert.equal(custom.mailFrom, 'Hooks <h@example.com>');
  assert.throws(() => loadConfig({ SVC_WEBHOOKS_ENABLED: 'maybe' }), /SVC_WEBHOOKS_ENABLED/);
  assert.throws(() => loadConfig({ SVC_WEBHOOK_RETRY_DELAYS: '60,soon' }), /SVC_WEBHOOK_RETRY_DELAYS/);
  assert.throws(() => loadConfig({ SVC_WEBHOOK_RATE: '-1' }), /SVC_WEBHOOK_RATE/);
});

test('SVC_WEBHOOK_ALLOW_PRIVATE=true is announced with a warning at start', () => {
  const log = memoryLog();
  warnAboutWebhookConfig(loadConfig({ SVC_WEBHOOK_ALLOW_PRIVATE: 'true' }), log);
  assert.equal(log.lines.length, 1);
  assert.equal(log.lines[0]!.level, 'warn');
  assert.match(log.lines[0]!.msg, /SVC_WEBHOOK_ALLOW_PRIVATE=true/);
  const quiet = memoryLog();
  warnAboutWebhookConfig(loadConfig({}), quiet);
  assert.equal(quiet.lines.length, 0);
});
