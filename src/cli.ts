// Platform administration from the shell: the operator API's operations, plus migrate.
// Works on DATABASE_URL, or on the embedded server in SVC_DATA_DIR whether or not the
// service is running (it attaches to a running server, or starts one and stops it after).
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { sql } from 'kysely';
import type { TSchema } from 'typebox';
import { connectDatabase } from './db/connect.ts';
import { openDatabase, type Db } from './db/database.ts';
import { loadConfig } from './config.ts';
import { AppError } from './platform/errors.ts';
import { describeErrors, makeAjv } from './platform/validation.ts';
import * as companies from './modules/companies/index.ts';
import { loadModules } from './modules/index.ts';
import { MCP_USAGE, runMcpStdio } from './cli-mcp.ts';
import { API_USAGE, runApiCli } from './cli-api/index.ts';
import { BACKUP_COMMANDS, BACKUP_USAGE } from './cli-backup.ts';
import { BILLING_COMMANDS, BILLING_USAGE } from './cli-billing.ts';
import { companyId, UsageError, type Command, type Output, type Values } from './cli-command.ts';

const USAGE = `Usage: npm run svc -- <command> [options]

Commands:
  company create --name <text> [--timezone <IANA zone, default UTC>] [--currency <ISO 4217, default EUR>]
                 [--owner-name <text>] [--owner-surname <text>] [--owner-email <email>]
  company update --id <company uuid> [--subscription-status active|lapsed] [--plan pro|basic]
                 [--timezone <IANA zone>] [--feature billing|analytics|drive=true|false]...
  member add     --company <company uuid> --name <text> [--surname <text>] --email <email>
                 --role member|admin|owner --status active|inactive|pending|limited
  migrate        apply pending database migrations
${BACKUP_USAGE}
${BILLING_USAGE}
${MCP_USAGE}
  help           show this text

Options for every command:
  --json     print machine-readable JSON (errors go to stderr as {"error": {...}})
  --verbose  log database start-up to stderr

Database: DATABASE_URL when set; otherwise the embedded PostgreSQL in SVC_DATA_DIR (default ./data),
used whether or not the service is running.

${API_USAGE}`;

/** The operator commands; any other first word is an API command (src/cli-api). */
const OPERATOR_WORDS = new Set(['company', 'member', 'migrate', 'backup', 'restore', 'unbilled-work', 'mcp', 'help']);

const GLOBAL: ParseArgsOptionsConfig = {
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};
const str = (values: Values, name: string) => values[name] as string | undefined;

// The same validator as JSON bodies in the API: no coercion, unknown fields refused.
const ajv = makeAjv(false);

/** Names a body field the way the user typed it: subscription_status is --subscription-status, features.x is --feature x. */
function optionOf(field: string): string {
  if (field.startsWith('features.')) return `--feature ${field.slice('features.'.length)}`;
  if (field.startsWith('owner.')) return `--owner-${field.slice('owner.'.length)}`;
  return `--${field.replace(/_/g, '-')}`;
}

function validated<T>(schema: TSchema, value: T): T {
  const check = ajv.compile(schema);
  if (check(value)) return value;
  const errors = check.errors ?? [];
  const [problem] = describeErrors(errors, 'input');
  const field = problem?.field ?? 'input';
  // A choice (union of literals) fails once per alternative: list them instead of "must be equal to constant".
  const choices = errors
    .filter((e) => e.keyword === 'const' && e.instancePath === errors[0]?.instancePath)
    .map((e) => (e.params as { allowedValue: unknown }).allowedValue);
  const message = choices.length ? `must be one of ${choices.join(', ')}` : (problem?.message ?? 'is invalid');
  throw new AppError('VALIDATION_ERROR', `${optionOf(field)} ${message}`, { field });
}

/** Drops options that were not given, so optional fields stay absent rather than undefined. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const FLAG_VALUES: Record<string, boolean> = {
  true: true,
  false: false,
  on: true,
  off: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
};

function parseFeatures(entries: string[] | undefined): Record<string, boolean> | undefined {
  if (!entries?.length) return undefined;
  const features: Record<string, boolean> = {};
  for (const entry of entries) {
    const [name, raw] = entry.split('=', 2);
    const flag = raw === undefined ? undefined : FLAG_VALUES[raw.toLowerCase()];
    if (!name || flag === undefined) throw new UsageError(`--feature expects <name>=true|false, got "${entry}"`);
    features[name] = flag;
  }
  return features;
}

const onOff = (flag: boolean) => (flag ? 'on' : 'off');

const COMMANDS: Record<string, Command> = {
  'company create': {
    options: {
      name: { type: 'string' },
      timezone: { type: 'string' },
      currency: { type: 'string' },
      'owner-name': { type: 'string' },
      'owner-surname': { type: 'string' },
      'owner-email': { type: 'string' },
    },
    required: ['name'],
    input(values) {
      const ownerGiven = ['owner-name', 'owner-surname', 'owner-email'].some((o) => values[o] !== undefined);
      const owner = ownerGiven
        ? compact({
            name: str(values, 'owner-name') ?? 'Owner',
            surname: str(values, 'owner-surname'),
            email: str(values, 'owner-email'),
          })
        : undefined;
      const body = validated(
        companies.CompanyCreate,
        compact({
          name: str(values, 'name')!,
          timezone: str(values, 'timezone'),
          currency: str(values, 'currency'),
          owner,
        }),
      );
      companies.assertTimezone(body.timezone ?? 'UTC');
      return body;
    },
    async run(db, input: Parameters<typeof companies.createCompany>[1]) {
      // The modules' seeders (e.g. default project types), as the server's operator API runs them.
      const created = await companies.createCompany(db, input, loadModules().seeders);
      const text = [
        `Created company "${input.name}" ${created.company_id}`,
        `  timezone:   ${input.timezone ?? 'UTC'}`,
        `  owner:      ${created.owner.name} (person ${created.owner.person_id}, member ${created.owner.member_id})`,
        `  admin key:  ${created.api_key.full_key}`,
        'The key is shown only once: store it now.',
      ].join('\n');
      return { json: created, text };
    },
  },
  'company update': {
    options: {
      id: { type: 'string' },
      'subscription-status': { type: 'string' },
      plan: { type: 'string' },
      timezone: { type: 'string' },
      feature: { type: 'string', multiple: true },
    },
    required: ['id'],
    input(values) {
      const id = companyId(values, 'id');
      const body = validated(
        companies.CompanyUpdate,
        compact({
          subscription_status: str(values, 'subscription-status') as 'active' | 'lapsed' | undefined,
          plan: str(values, 'plan') as 'pro' | 'basic' | undefined,
          timezone: str(values, 'timezone'),
          features: parseFeatures(values.feature as string[] | undefined),
        }),
      );
      if (Object.keys(body).length === 0)
        throw new UsageError('nothing to change: give --subscription-status, --plan, --timezone or --feature');
      if (body.timezone) companies.assertTimezone(body.timezone);
      return { id, body };
    },
    async run(db, input: { id: string; body: Parameters<typeof companies.updateCompany>[2] }) {
      const company = await companies.updateCompany(db, input.id, input.body);
      const features = Object.entries(company.features)
        .map(([name, flag]) => `${name} ${onOff(flag === true)}`)
        .join(', ');
      const text = [
        `Updated company "${company.name}" ${company.id}`,
        `  plan: ${company.plan}, subscription: ${company.subscription_status}, timezone: ${company.timezone}`,
        `  features: ${features}`,
      ].join('\n');
      return { json: company, text };
    },
  },
  'member add': {
    options: {
      company: { type: 'string' },
      name: { type: 'string' },
      surname: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      status: { type: 'string' },
    },
    required: ['company', 'name', 'email', 'role', 'status'],
    input(values) {
      const company = companyId(values, 'company');
      const body = validated(
        companies.MemberAdd,
        compact({
          name: str(values, 'name')!,
          surname: str(values, 'surname'),
          email: str(values, 'email')!,
          role: str(values, 'role') as 'member',
          status: str(values, 'status') as 'active',
        }),
      );
      return { companyId: company, body };
    },
    async run(db, input: { companyId: string; body: Parameters<typeof companies.addMember>[2] }) {
      const added = await companies.addMember(db, input.companyId, input.body);
      const who = [input.body.name, input.body.surname].filter(Boolean).join(' ');
      return {
        json: added,
        text: `Added ${who} <${input.body.email}> as ${input.body.role} (${input.body.status}): person ${added.person_id}, member ${added.member_id}`,
      };
    },
  },
  migrate: {
    options: {},
    input: () => ({}),
    async run(_db, _input, connection) {
      const { applied } = connection;
      return {
        json: { applied },
        text: applied.length
          ? `Applied migrations: ${applied.join(', ')}`
          : 'The database schema is up to date; nothing to apply.',
      };
    },
  },
  ...BACKUP_COMMANDS,
  ...BILLING_COMMANDS,
};

interface Invocation {
  name: string;
  command: Command;
  values: Values;
}

/** Command words come first (`company create`), options after; each command accepts only its own options. */
function parseInvocation(argv: string[]): Invocation | 'help' {
  const firstOption = argv.findIndex((a) => a.startsWith('-'));
  const all = firstOption === -1 ? argv : argv.slice(0, firstOption);
  // A command that takes a FILE (backup, restore) is one word; the file may come before or after its options.
  const words = COMMANDS[argv[0] ?? '']?.file ? argv.slice(0, 1) : all;
  const name = words.join(' ');
  if (name === '' || name === 'help') return 'help';
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  let values: Values;
  try {
    const parsed = parseArgs({
      args: argv.slice(words.length),
      options: { ...GLOBAL, ...command.options },
      strict: true,
      allowPositionals: command.file === true,
    });
    values = parsed.values as Values;
    if (command.file && !values.help) values.file = onePositional(name, parsed.positionals);
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const missing = (command.required ?? []).filter((option) => values[option] === undefined);
  if (missing.length) throw new UsageError(`${name}: missing ${missing.map((m) => `--${m}`).join(', ')}`);
  return { name, command, values };
}

function onePositional(name: string, positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(`${name}: give exactly one FILE (got ${positionals.length})`);
  return positionals[0]!;
}

async function execute({ command, values }: Invocation): Promise<Output> {
  const input = await command.input(values);
  const offline = command.offline?.(values);
  if (offline) return offline;
  const log = values.verbose
    ? (msg: string, extra?: object) => console.error(msg, extra ? JSON.stringify(extra) : '')
    : () => {};
  const config = loadConfig();
  const connection = await connectDatabase(config, log, { migrate: command.migrate !== false });
  const database = openDatabase(connection.url, {
    max: 2,
    pooled: connection.pooled,
    applicationName: CLI_APPLICATION,
  });
  try {
    // Each command's run() names its own input type, which its input() builds; the table of commands cannot.
    const output = await command.run(database.db, input as never, connection, config);
    return {
      ...output,
      text: `${output.text}\n(database: ${connection.embedded ? `embedded PostgreSQL in ${connection.location}` : connection.location})`,
    };
  } finally {
    const inUse = connection.owned && (await usedByOthers(database.db).catch(() => false));
    await database.close();
    if (inUse) console.error('note: the embedded PostgreSQL stays running: another process connected to it meanwhile');
    else await connection.stop();
  }
}

const CLI_APPLICATION = `service-api-cli-${process.pid}`;

/**
 * A service that started while this command ran attached to the server this command started.
 * Stopping it would take the database away from that service; leaving it running is safe
 * (the next start adopts a server whose owner is gone).
 */
async function usedByOthers(db: Db): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where backend_type = 'client backend' and pid <> pg_backend_pid() and application_name <> ${CLI_APPLICATION}`.execute(
    db,
  );
  return (rows[0]?.n ?? 0) > 0;
}

function report(error: unknown, json: boolean): number {
  if (error instanceof UsageError) {
    console.error(
      json
        ? JSON.stringify({ error: { code: 'USAGE', message: error.message } })
        : `error: ${error.message}\nRun \`npm run svc -- help\` for usage.`,
    );
    return 2;
  }
  const appError = error instanceof AppError ? error : undefined;
  const body = appError
    ? { code: appError.code, message: appError.message, ...(appError.details ? { details: appError.details } : {}) }
    : { code: 'FAILED', message: (error as Error)?.message ?? String(error) };
  console.error(json ? JSON.stringify({ error: body }) : `error: ${body.code}: ${body.message}`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  if (argv[0] === 'mcp') return runMcpStdio(argv.slice(1)).catch((error: Error) => report(error, json));
  if (argv[0] !== undefined && !argv[0].startsWith('-') && !OPERATOR_WORDS.has(argv[0])) return runApiCli(argv);
  try {
    const invocation = parseInvocation(argv);
    if (invocation === 'help') {
      console.log(USAGE);
      return 0;
    }
    const output = await execute(invocation);
    console.log(json ? JSON.stringify(output.json, null, 2) : output.text);
    return 0;
  } catch (error) {
    return report(error, json);
  }
}

// exitCode, not exit(): stdout to a pipe is written asynchronously and must not be cut short.
process.exitCode = await main(process.argv.slice(2));
