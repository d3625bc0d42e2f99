// `svc` for API v3: login profiles, a command per operation of the served OpenAPI document, `svc api`, and the
// hand-written verbs (invoices download, jobs wait, webhooks listen). src/cli.ts hands over every command that
// is not an operator command.
import { Command, CommanderError } from 'commander';
import { addApiCommand } from './api.ts';
import { addCompletionCommands, candidates } from './completion.ts';
import { resolveProfile } from './config.ts';
import { addDownloadCommand } from './download.ts';
import { EXIT, reportError } from './errors.ts';
import { addJobsWait } from './jobs.ts';
import { addListenCommand } from './listen.ts';
import { addLoginCommands } from './login.ts';
import { cachedDocument, commandsOf, loadDocument, type ApiCommand } from './openapi.ts';
import { addResourceCommands, groupOf } from './resources.ts';

export const EXIT_CODES = `Exit codes: 0 ok, 1 failed (a job that failed, an unexpected error), 2 usage (bad command, flag or value:
  nothing was sent), 4 the API answered 4xx, 5 the API answered 5xx, 6 network failure (service unreachable).
Errors print the code, the message and the request id to stderr (as {"error": {...}} with -o json).`;

export const API_USAGE = `API commands (svc <command> --help for each):
  login --company <uuid> [--url <base>] [--profile <name>] < key   store a verified key (from stdin or $SVC_API_KEY); logout; profiles
  <resource> list|get|create|update|delete [...]   every operation of /api/v3/openapi.json, e.g. svc clients list
                 flags from query parameters and body fields; --data '<json>' | --data @file.json; list --all
  api <METHOD> <PATH> [--data ...]                 any request
  invoices download <id> --format pdf|ubl [--out file]
  jobs wait <id>                                   progress until the job ends (exit 0 finished, 1 failed)
  webhooks listen --forward-to <url> [--events a,b]   signed events to a local receiver, no public URL
  completion bash|zsh                              print a shell completion script
Options for every API command: --profile <name> (or $SVC_PROFILE), -o table|json|csv (table on a terminal, else json)
${EXIT_CODES}`;

/** Commands that run without the OpenAPI document. */
const STATIC = new Set(['login', 'logout', 'profiles', 'api', 'completion']);
const SPECIAL: Record<string, string> = { invoices: 'download', jobs: 'wait', webhooks: 'listen' };

function baseProgram(): Command {
  const program = new Command('svc')
    .description('Service API v3 from the command line')
    .option('--profile <name>', 'profile from svc login (default $SVC_PROFILE or the last login)')
    .option('-o, --output <format>', 'table, json or csv (default: table on a terminal, json otherwise)')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', `\n${EXIT_CODES}`);
  addLoginCommands(program);
  addApiCommand(program);
  addCompletionCommands(program);
  return program;
}

/** --profile's value, read before parsing: it decides which service's document defines the commands. */
function profileFlag(argv: string[]): string | undefined {
  const at = argv.indexOf('--profile');
  if (at !== -1) return argv[at + 1];
  return argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
}

const names = (commands: ApiCommand[], argv: string[]) =>
  SPECIAL[argv[0]!] === argv[1] ||
  commands.some(
    (c) => c.resource === argv[0] && (argv[1] === undefined || argv[1].startsWith('-') || c.verb === argv[1]),
  );

async function apiCommands(argv: string[], offline: boolean): Promise<ApiCommand[]> {
  const { profile } = await resolveProfile(profileFlag(argv));
  if (offline) {
    const document = await cachedDocument(profile);
    return document ? commandsOf(document) : [];
  }
  const commands = commandsOf(await loadDocument(profile));
  // A command the cached document does not name may be a route added since: ask the service once.
  return names(commands, argv) ? commands : commandsOf(await loadDocument(profile, true));
}

function addSpecials(program: Command): void {
  addDownloadCommand(groupOf(program, 'invoices'));
  addJobsWait(groupOf(program, 'jobs'));
  addListenCommand(groupOf(program, 'webhooks'));
}

async function programFor(argv: string[], complete: boolean): Promise<Command> {
  const program = baseProgram();
  const words = complete ? argv.slice(1) : argv;
  if (complete || !STATIC.has(argv[0]!)) {
    const commands = await apiCommands(words, complete).catch((error) => {
      if (complete) return [];
      throw error;
    });
    addResourceCommands(program, commands);
    addSpecials(program);
  }
  return program;
}

const wantsJson = (argv: string[]) =>
  argv.some(
    (a, i) => ['-ojson', '--output=json'].includes(a) || (['-o', '--output'].includes(a) && argv[i + 1] === 'json'),
  );

export async function runApiCli(argv: string[]): Promise<number> {
  try {
    const complete = argv[0] === '__complete';
    const program = await programFor(argv, complete);
    if (complete) {
      console.log(candidates(program, argv.slice(1)).join('\n'));
      return EXIT.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportError(error, wantsJson(argv));
  }
}
