import * as crypto from 'node:crypto';
import { promisify } from 'node:util';
import { domainValidation } from '../../platform/errors.ts';

/**
 * Password hashing (docs/decisions/0051): argon2id from node:crypto with OWASP's parameters (19 MiB, 2 passes,
 * 1 lane) where the Node in use has it, else scrypt (N=2^17, r=8, p=1). Stored as PHC strings, so a hash made
 * with other parameters (or by the other function) is still verified, and replaced at the next sign-in.
 * The work runs on libuv's thread pool, never on the event loop, and at most two hashes at once.
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1 };
const SCRYPT = { ln: 17, r: 8, p: 1 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Hashes running at once: the rest wait, so a burst of sign-ins cannot take every thread of the pool. */
const CONCURRENT_HASHES = 2;

type Argon2 = (
  algorithm: 'argon2id',
  parameters: crypto.Argon2Parameters,
  callback: (error: Error | null, key: Buffer) => void,
) => void;
const argon2 = (crypto as { argon2?: Argon2 }).argon2;
const argon2Async = argon2 ? promisify(argon2) : undefined;
const scryptAsync = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** argon2id when this Node has it (24.7 and later), else scrypt. */
export const PASSWORD_ALGORITHM: 'argon2id' | 'scrypt' = argon2Async ? 'argon2id' : 'scrypt';

let running = 0;
const waiting: Array<() => void> = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** The most a stored hash may ask for (256 MiB, ten passes): a damaged row must not cost unbounded work. */
const ARGON2_LIMITS: Record<string, number> = { m: 262_144, t: 10, p: 8 };
const SCRYPT_LIMITS: Record<string, number> = { ln: 20, r: 16, p: 4 };

interface Parsed {
  algorithm: 'argon2id' | 'scrypt';
  params: Record<string, number>;
  salt: Buffer;
  hash: Buffer;
}

/** `$argon2id$v=19$m=..,t=..,p=..$salt$hash` or `$scrypt$ln=..,r=..,p=..$salt$hash`; undefined for anything else. */
function parse(phc: string): Parsed | undefined {
  const parts = phc.split('$');
  const [, name, ...rest] = parts;
  if (name === 'argon2id' && rest.length === 4 && rest[0] === 'v=19') rest.shift();
  else if (name !== 'scrypt' || rest.length !== 3) return undefined;
  const algorithm: Parsed['algorithm'] = name;
  const params: Record<string, number> = {};
  for (const pair of rest[0]!.split(',')) {
    const [name, value] = pair.split('=');
    if (!name || !/^\d{1,7}$/.test(value ?? '')) return undefined;
    params[name] = Number(value);
  }
  const limits = algorithm === 'scrypt' ? SCRYPT_LIMITS : ARGON2_LIMITS;
  if (Object.entries(limits).some(([name, max]) => !(params[name]! >= 1 && params[name]! <= max))) return undefined;
  const salt = Buffer.from(rest[1]!, 'base64');
  const hash = Buffer.from(rest[2]!, 'base64');
  if (salt.length < 8 || hash.length < 16) return undefined;
  return { algorithm, params, salt, hash };
}

async function derive(algorithm: Parsed['algorithm'], params: Record<string, number>, password: string, salt: Buffer) {
  if (algorithm === 'argon2id') {
    if (!argon2Async) throw new Error('this Node has no crypto.argon2 to verify an argon2id hash with');
    const { m, t, p } = params as { m: number; t: number; p: number };
    return argon2Async('argon2id', {
      message: password,
      nonce: salt,
      memory: m,
      passes: t,
      parallelism: p,
      tagLength: HASH_BYTES,
    });
  }
  const { ln, r, p } = params as { ln: number; r: number; p: number };
  const N = 2 ** ln;
  return scryptAsync(password, salt, HASH_BYTES, { N, r, p, maxmem: 256 * N * r });
}

/** The PHC string of a new hash of the password with today's function and parameters. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  if (PASSWORD_ALGORITHM === 'argon2id') {
    const { memory: m, passes: t, parallelism: p } = ARGON2;
    const hash = await limited(() => derive('argon2id', { m, t, p }, password, salt));
    return `$argon2id$v=19$m=${m},t=${t},p=${p}$${b64(salt)}$${b64(hash)}`;
  }
  const hash = await limited(() => derive('scrypt', SCRYPT, password, salt));
  return `$scrypt$ln=${SCRYPT.ln},r=${SCRYPT.r},p=${SCRYPT.p}$${b64(salt)}$${b64(hash)}`;
}

/** The parameter text a hash made today carries, to tell an outdated one. */
const CURRENT_PARAMS =
  PASSWORD_ALGORITHM === 'argon2id'
    ? `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$`
    : `$scrypt$ln=${SCRYPT.ln},r=${SCRYPT.r},p=${SCRYPT.p}$`;

export interface Verified {
  ok: boolean;
  /** The hash was made with other parameters (or the other function): store a new one. */
  rehash: boolean;
}

/** Compares in constant time; a hash that cannot be read is a wrong password, never an error. */
export async function verifyPassword(phc: string, password: string): Promise<Verified> {
  const parsed = parse(phc);
  if (!parsed) return { ok: false, rehash: false };
  const derived = await limited(() => derive(parsed.algorithm, parsed.params, password, parsed.salt)).catch(
    () => undefined,
  );
  const ok =
    derived !== undefined && derived.length === parsed.hash.length && crypto.timingSafeEqual(derived, parsed.hash);
  return { ok, rehash: ok && !phc.startsWith(CURRENT_PARAMS) };
}

let dummy: Promise<string> | undefined;

/**
 * Checks the password against a hash of nothing anyone knows: an unknown address costs the same hash as a known
 * one, so the time of the answer does not tell whether the address has an account.
 */
export async function verifyAgainstNothing(password: string): Promise<void> {
  dummy ??= hashPassword(crypto.randomBytes(32).toString('hex'));
  await verifyPassword(await dummy, password);
}

/** The rules a new password meets: 10-200 characters, and not the account's e-mail address. */
export function assertPasswordRules(password: string, email: string, field: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX)
    throw domainValidation('PASSWORD_LENGTH', `${field} must be ${PASSWORD_MIN}-${PASSWORD_MAX} characters long`, {
      field,
    });
  if (password.trim().toLowerCase() === email.trim().toLowerCase())
    throw domainValidation('PASSWORD_IS_EMAIL', `${field} must not be the e-mail address`, { field });
}

const READABLE = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random password of `length` unambiguous letters and digits (the demo owner's). */
export function generatePassword(length = 20): string {
  return Array.from({ length }, () => READABLE[crypto.randomInt(READABLE.length)]).join('');
}
