import ipaddr from 'ipaddr.js';

/** Normalises IPv4-mapped IPv6 (::ffff:1.2.3.4) so v4 ranges match. */
export function parseAddress(address: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!address || !ipaddr.isValid(address)) return null;
  return ipaddr.process(address);
}

// Asked up to three times per request about the same few peers; parsing with ipaddr.js each time was 2 % of the
// service's CPU on a cached read (BENCHMARKS.md, issue 28). Bounded: a flood of distinct peers only clears it.
const loopbackSeen = new Map<string, boolean>();
const LOOPBACK_KEPT = 1000;

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  let loopback = loopbackSeen.get(address);
  if (loopback === undefined) {
    const parsed = parseAddress(address);
    loopback = parsed !== null && parsed.range() === 'loopback';
    if (loopbackSeen.size >= LOOPBACK_KEPT) loopbackSeen.clear();
    loopbackSeen.set(address, loopback);
  }
  return loopback;
}

export function isValidCidrOrAddress(entry: string): boolean {
  if (ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

export function addressAllowed(address: string | undefined, allowlist: readonly string[]): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  return allowlist.some((entry) => {
    if (ipaddr.isValid(entry)) return ipaddr.process(entry).toString() === parsed.toString();
    const [range, bits] = ipaddr.parseCIDR(entry);
    const candidate =
      parsed.kind() === range.kind()
        ? parsed
        : parsed.kind() === 'ipv4'
          ? (parsed as ipaddr.IPv4).toIPv4MappedAddress()
          : null;
    return candidate !== null && (candidate as ipaddr.IPv4).match(range as ipaddr.IPv4, bits);
  });
}

/** proxy-addr's names, which SVC_TRUST_PROXY accepts through Fastify as well as addresses and CIDRs. */
const TRUST_PRESETS: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Whether SVC_TRUST_PROXY trusts this socket peer: the same setting Fastify reads request.ip through. */
export function trustsPeer(trustProxy: string | undefined, peer: string | undefined): boolean {
  if (!trustProxy || trustProxy === 'false') return false;
  if (trustProxy === 'true') return true;
  const entries = trustProxy
    .split(',')
    .map((entry) => entry.trim())
    .flatMap((entry) => TRUST_PRESETS[entry] ?? [entry])
    .filter(isValidCidrOrAddress);
  return addressAllowed(peer, entries);
}

interface Peer {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}

/**
 * Forwarding headers from a peer SVC_TRUST_PROXY does not trust: a reverse proxy nobody told the
 * service about, or the caller's own words. Either way they say the request did not start here.
 */
export function forwardedByUntrustedPeer(trustProxy: string | undefined, request: Peer): boolean {
  const { headers } = request;
  if (!headers['x-forwarded-for'] && !headers['x-forwarded-proto'] && !headers.forwarded) return false;
  return !trustsPeer(trustProxy, request.socket.remoteAddress);
}

/** The address a proxy appended last: the rightmost X-Forwarded-For entry, else the last `for=` of Forwarded. */
function lastForwardedHop(headers: Peer['headers']): string | undefined {
  const joined = (value: string | string[] | undefined) => [value ?? []].flat().join(',');
  const xff = joined(headers['x-forwarded-for'])
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .at(-1);
  if (xff) return xff;
  const forwarded = [...joined(headers.forwarded).matchAll(/for=("?)\[?([^\]";,\s]+)/gi)].at(-1)?.[2];
  return forwarded;
}

/**
 * The address the per-address limit counts. A loopback peer that forwards without being trusted is
 * almost always a reverse proxy on the same machine: counting the peer would put every caller in
 * one bucket that any anonymous client can empty. The hop that proxy appended (the last
 * X-Forwarded-For entry) is not something a client can choose, so that is counted instead; only a
 * process on the machine itself could pick it. Anyone else is counted by request.ip.
 */
export function limitAddress(trustProxy: string | undefined, request: Peer & { ip: string }): string {
  if (!isLoopback(request.socket.remoteAddress) || !forwardedByUntrustedPeer(trustProxy, request)) return request.ip;
  const hop = lastForwardedHop(request.headers);
  // "1.2.3.4:5678" carries a port; an IPv6 address is valid as it stands.
  const address = hop && (ipaddr.isValid(hop) ? hop : hop.replace(/:\d+$/, ''));
  return address && ipaddr.isValid(address) ? ipaddr.process(address).toString() : request.ip;
}
