// svc login / logout / profiles: one call verifies the key before anything is stored.
import type { Command } from 'commander';
import {
  assertSafeUrl,
  configPath,
  DEFAULT_URL,
  profileName,
  readConfig,
  writeConfig,
  type Profile,
} from './config.ts';
import { CliError, usage } from './errors.ts';
import { call } from './http.ts';
import { fetchDocument } from './openapi.ts';
import { readStdinKey } from './prompt.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Me {
  company: { id: string; name: string };
  key: { name: string; scopes: string[] };
}

async function login(options: { company: string; key?: string; url?: string; profile?: string }): Promise<void> {
  if (!UUID.test(options.company)) throw usage(`--company must be a company UUID, got "${options.company}"`);
  const url = (options.url ?? process.env.SVC_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  assertSafeUrl(url, '--url');
  const profile: Profile = { url, company: options.company, key: await keyOf(options.key) };
  const me = ((await call(profile, 'GET', '/auth/me')).body as { data: Me }).data;
  const config = await readConfig();
  const name = options.profile ?? process.env.SVC_PROFILE ?? 'default';
  const kept = config.profiles[name];
  // The listen secret stays with the company: a receiver configured with it keeps working after a new login.
  if (kept?.company === profile.company && kept.listen_secret) profile.listen_secret = kept.listen_secret;
  await writeConfig({ ...config, current: name, profiles: { ...config.profiles, [name]: profile } });
  await fetchDocument(profile).catch(() => undefined); // the commands' cache; fetched again on first use if this fails
  console.log(
    `Logged in to ${url} as key "${me.key.name}" (${me.key.scopes.join(', ')}) of ${me.company.name}.\n` +
      `Profile "${name}" saved in ${configPath()}.`,
  );
}

async function logout(flag: string | undefined): Promise<void> {
  const config = await readConfig();
  const name = profileName(flag, config);
  if (!config.profiles[name]) throw new CliError('NOT_LOGGED_IN', `no profile "${name}"`);
  const { [name]: _removed, ...profiles } = config.profiles;
  const current = config.current === name ? Object.keys(profiles)[0] : config.current;
  await writeConfig({ current, profiles });
  console.log(`Removed profile "${name}" from ${configPath()}.`);
}

async function listProfiles(): Promise<void> {
  const config = await readConfig();
  const names = Object.keys(config.profiles);
  if (!names.length) console.log('No profiles: run `svc login --company <uuid>` (the key on standard input).');
  for (const name of names) {
    const p = config.profiles[name]!;
    console.log(
      `${name === config.current ? '*' : ' '} ${name}  ${p.url}  company ${p.company}  key ${p.key.slice(0, 14)}…`,
    );
  }
}

/**
 * The key, from where no other user can read it: $SVC_API_KEY, else standard input (typed unechoed at a terminal,
 * or piped). `--key` put it in the process list and the shell history; it still works, with a warning.
 */
async function keyOf(flag: string | undefined): Promise<string> {
  if (flag !== undefined) {
    console.error(
      'warning: --key is deprecated: it puts the API key in the process list and shell history; ' +
        'pipe it on standard input or set SVC_API_KEY instead',
    );
    return flag;
  }
  const key = (process.env.SVC_API_KEY ?? (await readStdinKey())).trim();
  if (!key)
    throw usage('no API key: pipe it on standard input (svc login --company <uuid> < key.txt) or set SVC_API_KEY');
  return key;
}

export function addLoginCommands(program: Command): void {
  program
    .command('login')
    .description(
      'verify a company API key and store it in a profile (the config file is mode 0600); the key is read from ' +
        'standard input (unechoed at a terminal) or $SVC_API_KEY',
    )
    .requiredOption('--company <uuid>', 'company UUID (X-Service-Company)')
    .option('--key <key>', 'deprecated: exposes the key in the process list; use standard input or $SVC_API_KEY')
    .option('--url <base>', `service URL (default $SVC_URL or ${DEFAULT_URL})`)
    .action((_opts, cmd: Command) => login(cmd.optsWithGlobals()));
  program
    .command('logout')
    .description('forget a profile (--profile, $SVC_PROFILE or the current one)')
    .action((_opts, cmd: Command) => logout(cmd.optsWithGlobals().profile));
  program.command('profiles').description('list the stored profiles (* marks the current one)').action(listProfiles);
}
