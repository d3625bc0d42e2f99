// `svc <resource> <verb>` for every operation of the served document (openapi.ts names them).
import { Command, Option } from 'commander';
import { resolveProfile, type Profile } from './config.ts';
import { call, printWarnings, type Answer } from './http.ts';
import { flagsOf, requestOf, type RequestParts } from './flags.ts';
import { formatOf, render, renderList } from './output.ts';
import type { ApiCommand } from './openapi.ts';

/** The group of a resource, made once; the hand-written verbs (download, wait, listen) join the same group. */
export function groupOf(program: Command, resource: string): Command {
  return (
    program.commands.find((c) => c.name() === resource) ??
    program.command(resource).description(`${resource} (from the API's OpenAPI document)`)
  );
}

function describe(command: ApiCommand): string {
  const summary = command.description.split('\n\n')[0] ?? '';
  return `${summary} (${command.method} ${command.path})`;
}

function addOperation(group: Command, command: ApiCommand): void {
  const sub = group.command(command.verb).description(describe(command));
  for (const name of command.pathParams) sub.argument(`<${name}>`);
  const specs = flagsOf(command);
  const options = new Map<string, Option>();
  for (const spec of specs) {
    const option = new Option(`--${spec.flag} <value>`, spec.schema.description ?? `${spec.where} ${spec.field}`);
    options.set(spec.flag, option);
    sub.addOption(option);
  }
  if (command.hasBody) sub.option('--data <json|@file>', 'the whole JSON body (flags amend it)');
  if (command.method !== 'GET') sub.option('--if-match <etag>', 'send If-Match (the ETag of the record you read)');
  if (command.verb === 'list' && command.queryParams.includes('cursor'))
    sub.option('--all', 'every page: follows meta.next_cursor, or the offset on offset-only lists');
  sub.action(async (...args: unknown[]) => {
    const cmd = args.at(-1) as Command;
    const opts = cmd.optsWithGlobals();
    const given: Record<string, unknown> = { data: opts.data };
    for (const [flag, option] of options) given[flag] = opts[option.attributeName()];
    const format = formatOf(opts.output);
    const parts = requestOf(command, cmd.processedArgs as string[], given, specs);
    const { profile } = await resolveProfile(opts.profile);
    if (opts.all) {
      const rows = await allPages(profile, parts);
      return console.log(renderList(rows, format, { data: rows }));
    }
    const answer = await call(profile, command.method, parts.path, {
      query: parts.query,
      body: parts.body,
      ifMatch: opts.ifMatch,
    });
    printWarnings(answer);
    if (answer.status === 204) console.error(`${command.verb === 'delete' ? 'Deleted' : 'Done'} (204).`);
    else console.log(render(answer.body, format));
  });
}

type Meta = { next_cursor?: string | null; has_more?: boolean; offset?: number };

/** Every row of a list, page by page: by cursor where the list has one, else by offset (offset-only lists). */
async function allPages(profile: Profile, parts: RequestParts): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let query: Record<string, unknown> = { ...parts.query };
  for (;;) {
    const answer: Answer = await call(profile, 'GET', parts.path, { query });
    const body = answer.body as { data: Record<string, unknown>[]; meta?: Meta };
    rows.push(...body.data);
    const meta = body.meta ?? {};
    if (meta.next_cursor) {
      // A cursor carries the sort and filters it was made with; only the page size goes along.
      query = { cursor: meta.next_cursor, ...(parts.query.limit === undefined ? {} : { limit: parts.query.limit }) };
    } else if (meta.has_more && meta.next_cursor === undefined && body.data.length > 0) {
      query = { ...query, offset: (meta.offset ?? 0) + body.data.length };
    } else break;
  }
  return rows;
}

export function addResourceCommands(program: Command, commands: ApiCommand[]): void {
  const sorted = [...commands].sort((a, b) => a.resource.localeCompare(b.resource) || a.verb.localeCompare(b.verb));
  for (const command of sorted) addOperation(groupOf(program, command.resource), command);
}
