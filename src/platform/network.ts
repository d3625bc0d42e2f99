import ipaddr from 'ipaddr.js';

/** Normalises IPv4-mapped IPv6 (::ffff:1.2.3.4) so v4 ranges match. */
export function parseAddress(address: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!address || !ipaddr.isValid(address)) return null;
  return ipaddr.process(address);
}

export function isLoopback(address: string | undefined): boolean {
  const parsed = parseAddress(address);
  return parsed !== null && parsed.range() === 'loopback';
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
