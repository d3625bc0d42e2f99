// svc login / logout / profiles: one call verifies the key before anything is stored.
import type { Command } from 'commander';
import { configPath, DEFAULT_URL, profileName, readConfig, writeConfig, type Profile } from './config.ts';
import { CliError, usage } from './errors.ts';
import { call } from './http.ts';
import { fetchDocument } from './openapi.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Me {
  company: { id: string; name: string };
  key: { name: string; scopes: string[] };
}

async function login(options: { company: string; key: string; url?: string; profile?: string }): Promise<void> {
  if (!UUID.test(options.company)) throw usage(`--company must be a company UUID, got "${options.company}"`);
  const url = (options.url ?? process.env.SVC_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  try {
    new URL(url);
  } catch {
    throw usage(`--url must be an absolute URL such as ${DEFAULT_URL}, got "${url}"`);
  }
  const profile: Profile = { url, company: options.company, key: options.key };
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
  if (!names.length) console.log('No profiles: run `svc login --company <uuid> --key <key>`.');
  for (const name of names) {
    const p = config.profiles[name]!;
    console.log(
      `${name === config.current ? '*' : ' '} ${name}  ${p.url}  company ${p.company}  key ${p.key.slice(0, 14)}…`,
    );
  }
}

export function addLoginCommands(program: Command): void {
  program
    .command('login')
    .description('verify a company API key and store it in a profile (the config file is mode 0600)')
    .requiredOption('--company <uuid>', 'company UUID (X-Service-Company)')
    .requiredOption('--key <key>', 'API key (X-API-Key)')
    .option('--url <base>', `service URL (default $SVC_URL or ${DEFAULT_URL})`)
    .action((_opts, cmd: Command) => login(cmd.optsWithGlobals()));
  program
    .command('logout')
    .description('forget a profile (--profile, $SVC_PROFILE or the current one)')
    .action((_opts, cmd: Command) => logout(cmd.optsWithGlobals().profile));
  program.command('profiles').description('list the stored profiles (* marks the current one)').action(listProfiles);
}
