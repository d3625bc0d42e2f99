// Per-user profiles: $XDG_CONFIG_HOME/svc/config.json (or ~/.config/svc/config.json). The file holds API keys,
// so the folder is 0700 and the file 0600, enforced on every write (a file made by hand is tightened too).
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isLoopback } from '../platform/network.ts';
import { CliError, usage } from './errors.ts';

export interface Profile {
  url: string;
  company: string;
  key: string;
  /** The secret `svc webhooks listen` signs with; kept so a local receiver's setting survives restarts. */
  listen_secret?: string;
}

export interface ConfigFile {
  current?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export function configDir(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'svc');
}

export const configPath = () => path.join(configDir(), 'config.json');

export async function readConfig(): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(configPath(), 'utf8');
  } catch {
    return { profiles: {} };
  }
  try {
    const parsed = JSON.parse(text) as ConfigFile;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch {
    throw new CliError('CONFIG', `${configPath()} is not valid JSON: fix or delete it`);
  }
}

/** Writes beside and renames, so a crash never leaves half a file; the mode is set before the key is in it. */
export async function writeConfig(config: ConfigFile): Promise<void> {
  const dir = configDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const temp = path.join(dir, `.config.${process.pid}.tmp`);
  await writeFile(temp, '', { mode: 0o600 });
  await chmod(temp, 0o600);
  await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`);
  await rename(temp, configPath());
}

/** --profile, else SVC_PROFILE, else the one `svc login` used last, else "default". */
export function profileName(flag: string | undefined, config: ConfigFile): string {
  return flag ?? process.env.SVC_PROFILE ?? config.current ?? 'default';
}

/**
 * An API key crosses the network encrypted only: https, or plain http to this machine (a local service, a tunnel
 * or proxy on it). Checked before anything is sent or stored.
 */
export function assertSafeUrl(url: string, source: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usage(`${source} must be an absolute URL such as ${DEFAULT_URL}, got "${url}"`);
  }
  if (parsed.protocol === 'https:') return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host.endsWith('.localhost') || isLoopback(host);
  if (parsed.protocol === 'http:' && local) return;
  throw usage(
    `${source} ${url} sends the API key unencrypted: use https:// (plain http:// is accepted for this machine only)`,
  );
}

/**
 * The profile a command runs as. SVC_COMPANY with SVC_API_KEY (and SVC_URL) stand in for a profile, for CI
 * and for `svc mcp`'s users, so a script needs no config file.
 */
export async function resolveProfile(flag: string | undefined): Promise<{ name: string; profile: Profile }> {
  const env = process.env;
  if (env.SVC_COMPANY && env.SVC_API_KEY && !flag) {
    const url = env.SVC_URL ?? DEFAULT_URL;
    assertSafeUrl(url, 'SVC_URL');
    return { name: 'environment', profile: { url, company: env.SVC_COMPANY, key: env.SVC_API_KEY } };
  }
  const config = await readConfig();
  const name = profileName(flag, config);
  const profile = config.profiles[name];
  if (!profile)
    throw new CliError(
      'NOT_LOGGED_IN',
      `no profile "${name}": run \`svc login --company <uuid>${name === 'default' ? '' : ` --profile ${name}`}\` (the key on standard input)`,
    );
  assertSafeUrl(profile.url, `profile "${name}":`);
  return { name, profile };
}
