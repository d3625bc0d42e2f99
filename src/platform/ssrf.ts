import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to every address it has; injectable so tests can stage any DNS answer. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Where a delivery connects: the address that was checked, never a second lookup. */
export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
  port: number;
  /** The Host header: host name, port when not the scheme default, IPv6 literals in brackets. */
  host: string;
}

/**
 * Why a URL may not receive deliveries. `reason` is the stable code, `message` the text the caller
 * sees; `detail` is for the log only (what a name resolved to would map a provider's internal DNS).
 */
export class UnsafeTarget extends Error {
  readonly reason: string;
  readonly detail: Record<string, unknown> | undefined;
  constructor(reason: string, message: string, detail?: Record<string, unknown>) {
    super(message);
    this.reason = reason;
    this.detail = detail;
  }
}

/**
 * How long a host name may take to resolve. getaddrinfo has no time-out of its own and runs in
 * libuv's small thread pool; a delivery must not wait on it longer than on the receiver itself.
 */
export const DNS_TIMEOUT_MS = 3000;

const MAX_URL_LENGTH = 2048;

/**
 * The range an address falls in, or null when it is public unicast. Only ipaddr.js's 'unicast'
 * passes: private, loopback, link-local, unique-local, multicast, reserved, CGNAT, 6to4, Teredo,
 * NAT64 and IPv4-mapped/compatible forms of any of those are all refused.
 */
export function blockedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return blockedRange((parsed as ipaddr.IPv6).toIPv4Address().toString());
  const range = parsed.range();
  if (range !== 'unicast') return RANGE_NAMES[range] ?? range;
  // ::/96 (IPv4-compatible, deprecated): ipaddr.js calls it unicast; nothing public lives there.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0))
    return 'IPv4-compatible';
  return null;
}

const RANGE_NAMES: Record<string, string> = {
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
  ipv4Mapped: 'IPv4-mapped',
};

/** Checks what can be checked without DNS: scheme, credentials, host. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  if (raw.length > MAX_URL_LENGTH)
    throw new UnsafeTarget('URL_TOO_LONG', `The URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTarget('URL_INVALID', 'The URL is not a valid absolute URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    throw new UnsafeTarget(
      'URL_SCHEME',
      `${url.protocol.replace(':', '')} is not allowed; webhook URLs must use https`,
    );
  if (url.username || url.password)
    throw new UnsafeTarget(
      'URL_CREDENTIALS',
      'The URL must not carry a user name or password; verify deliveries with the signature',
    );
  if (!url.hostname) throw new UnsafeTarget('URL_INVALID', 'The URL has no host');
  return url;
}

const bare = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

/** The lookup, or 'timeout' once ms have passed (the lookup itself cannot be cancelled; its answer is dropped). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function addressesOf(
  hostname: string,
  resolve: Resolver,
  timeoutMs: number,
): Promise<Array<{ address: string; family: number }>> {
  if (ipaddr.isValid(hostname))
    return [{ address: hostname, family: ipaddr.parse(hostname).kind() === 'ipv6' ? 6 : 4 }];
  let found: Array<{ address: string; family: number }> | 'timeout' = [];
  try {
    found = await withDeadline(resolve(hostname), timeoutMs);
  } catch {
    // handled below: no address is the same refusal whatever the resolver's error was
  }
  if (found === 'timeout')
    throw new UnsafeTarget('URL_UNRESOLVABLE', `The host ${hostname} did not resolve within ${timeoutMs / 1000} s`);
  if (found.length === 0) throw new UnsafeTarget('URL_UNRESOLVABLE', `The host ${hostname} does not resolve`);
  // Only addresses are connected to: anything else would make the HTTP client look the name up again.
  if (found.some(({ address }) => !ipaddr.isValid(address)))
    throw new UnsafeTarget('URL_UNRESOLVABLE', `The host ${hostname} did not resolve to addresses`);
  return found;
}

/**
 * Resolves the URL's host and checks every address it has (one private answer is enough to
 * refuse: a mixed answer is how DNS-rebinding attacks look). The result names the address to
 * connect to, so the check and the connection cannot disagree.
 */
export async function resolveTarget(
  raw: string,
  options: { allowPrivate: boolean; resolve?: Resolver; dnsTimeoutMs?: number },
): Promise<Target> {
  const url = parseWebhookUrl(raw, options.allowPrivate);
  const hostname = bare(url.hostname);
  const addresses = await addressesOf(
    hostname,
    options.resolve ?? systemResolver,
    options.dnsTimeoutMs ?? DNS_TIMEOUT_MS,
  );
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const range = blockedRange(address);
      if (!range) continue;
      // An address literal tells the caller nothing new; what a name resolves to stays in the log.
      if (hostname === address)
        throw new UnsafeTarget('URL_PRIVATE_ADDRESS', `${address} is not a public address (${range})`);
      throw new UnsafeTarget('URL_PRIVATE_ADDRESS', `${hostname} does not resolve to a public address`, {
        host: hostname,
        address,
        range,
      });
    }
  }
  const chosen = addresses[0]!;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4, port, host: url.host };
}
