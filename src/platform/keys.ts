import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'svc_live_';

/** 192 random bits: a plain SHA-256 is enough to store them (no dictionary to guess from). */
export function generateKey(): { fullKey: string; prefix: string; hash: string } {
  const fullKey = KEY_PREFIX + randomBytes(24).toString('base64url');
  return { fullKey, prefix: fullKey.slice(0, KEY_PREFIX.length + 6), hash: hashKey(fullKey) };
}

export function hashKey(fullKey: string): string {
  return createHash('sha256').update(fullKey).digest('hex');
}
