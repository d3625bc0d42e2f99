// `svc webhooks listen --forward-to URL`: follows the change feed (GET /events) and POSTs each new event to a
// local URL signed exactly as a real delivery (the webhooks module's buildDelivery), with a local secret.
// No public URL and no subscription on the server: see docs/decisions/0039-webhooks-listen.md.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { buildDelivery } from '../modules/webhooks/index.ts';
import { ApiError, NetworkError } from '../../sdk/src/transport.ts';
import { readConfig, resolveProfile, writeConfig, type Profile } from './config.ts';
import { CliError, EXIT, usage } from './errors.ts';
import { call } from './http.ts';

const PAGE = 200;
/** Sent as X-Service-Webhook-Id: no subscription exists on the server for a local listener. */
const LOCAL_WEBHOOK_ID = 0;

interface FeedEvent {
  id: string;
  event: string;
  occurred_at: string;
  data: Record<string, unknown>;
}
interface Feed {
  data: FeedEvent[];
  meta: { next_cursor?: string | null };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The secret from --secret, else the one this profile used before (a receiver keeps its setting), else new. */
async function secretFor(name: string, profile: Profile, given: string | undefined): Promise<string> {
  if (given) return given;
  if (profile.listen_secret) return profile.listen_secret;
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const config = await readConfig();
  if (config.profiles[name]) {
    config.profiles[name] = { ...config.profiles[name]!, listen_secret: secret };
    await writeConfig(config);
  }
  return secret;
}

/** One signed POST to the local receiver; the answer's status, or why there was none. */
async function forward(target: URL, event: FeedEvent, secret: string): Promise<string> {
  const { body, headers } = buildDelivery({
    event: { uuid: event.id, event: event.event, occurred_at: event.occurred_at, data: event.data },
    shapes: {}, // the feed already carries each event's delivery data
    webhookId: LOCAL_WEBHOOK_ID,
    secret,
    host: target.host,
    attempt: 1,
  });
  delete headers.Host; // fetch sets it from the URL
  const started = Date.now();
  try {
    const answer = await fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    await answer.body?.cancel();
    return `${answer.status} ${answer.statusText} (${Date.now() - started} ms)`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `failed: ${cause ?? (error as Error).message}`;
  }
}

/** Follows the feed from `since`: pages until the tail, then re-reads the tail page for what was added to it. */
async function follow(
  profile: Profile,
  filters: Record<string, unknown>,
  each: (e: FeedEvent) => Promise<void>,
  interval: number,
) {
  let cursor: string | undefined;
  let seen = new Set<string>();
  for (;;) {
    let feed: Feed;
    try {
      const query = cursor ? { cursor, limit: PAGE } : { ...filters, limit: PAGE };
      feed = (await call(profile, 'GET', '/events', { query })).body as Feed;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) throw refused(error);
      if (!(error instanceof NetworkError)) throw error;
      console.error(`warning: ${error.message}; trying again`);
      await sleep(interval);
      continue;
    }
    for (const event of feed.data.filter((e) => !seen.has(e.id))) {
      seen.add(event.id);
      await each(event);
    }
    // A full page moves the window on; the last page has no cursor, so it is read again until it fills.
    if (feed.meta.next_cursor) {
      cursor = feed.meta.next_cursor;
      seen = new Set();
    } else await sleep(interval);
  }
}

function refused(error: ApiError): CliError {
  return new CliError(
    error.code,
    `the service refused the key (${error.message}): it was revoked, expired or lost its admin scope; listening stopped`,
    EXIT.client,
    error.requestId ? { request_id: error.requestId } : undefined,
  );
}

async function runListen(cmd: Command): Promise<void> {
  const opts = cmd.optsWithGlobals();
  let target: URL;
  try {
    target = new URL(opts.forwardTo);
  } catch {
    throw usage(`--forward-to must be a URL such as http://localhost:3000/hook, got "${opts.forwardTo}"`);
  }
  if (!['http:', 'https:'].includes(target.protocol)) throw usage('--forward-to must be an http(s) URL');
  const interval = Number(opts.interval);
  if (!(interval >= 100)) throw usage('--interval must be at least 100 (ms)');
  const { name, profile } = await resolveProfile(opts.profile);
  const me = await call(profile, 'GET', '/auth/me').catch((e) => {
    throw e instanceof ApiError && e.status === 401 ? refused(e) : e;
  });
  // The server's clock, not this machine's, decides where "from now on" starts.
  const since = new Date(me.headers.get('date') ?? Date.now()).toISOString();
  const secret = await secretFor(name, profile, opts.secret);
  const company = (me.body as { data: { company: { name: string } } }).data.company.name;
  console.log(`Ready. Forwarding events of ${company} since ${since} to ${target.href}`);
  console.log(`Signing secret: ${secret}  (verify X-Service-Signature with it; Ctrl-C to stop)`);
  const filters = { occurred_from: since, ...(opts.events ? { event: opts.events } : {}) };
  await follow(
    profile,
    filters,
    async (event) =>
      console.log(`${event.occurred_at}  ${event.event}  ${event.id}  -> ${await forward(target, event, secret)}`),
    interval,
  );
}

export function addListenCommand(webhooks: Command): void {
  webhooks
    .command('listen')
    .description("forward the company's events to a local URL, signed as real deliveries (no public URL needed)")
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/hook')
    .option('--events <names>', 'only these events, comma-separated (e.g. client.created,client.updated)')
    .option('--secret <whsec_...>', 'sign with this secret (default: the one printed at start, kept per profile)')
    .option('--interval <ms>', 'between polls of the feed at its tail', '1000')
    .action((_opts, cmd: Command) => runListen(cmd));
}
