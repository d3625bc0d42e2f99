// `svc api METHOD PATH`: any request, for what the generated commands do not cover.
import type { Command } from 'commander';
import { resolveProfile } from './config.ts';
import { usage } from './errors.ts';
import { readData } from './flags.ts';
import { call, printWarnings } from './http.ts';
import { formatOf, render } from './output.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `/api/v3/clients?limit=2` or `clients?limit=2` → the path under /api/v3 and its query. */
export function splitPath(raw: string): { path: string; query: Record<string, string[]> } {
  const url = new URL(raw.startsWith('/') ? raw : `/${raw}`, 'http://svc.invalid');
  const path = url.pathname.replace(/^\/api\/v3(?=\/|$)/, '') || '/';
  const query: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) (query[name] ??= []).push(value);
  return { path, query };
}

async function runApi(method: string, rawPath: string, cmd: Command): Promise<void> {
  const upper = method.toUpperCase();
  if (!METHODS.includes(upper)) throw usage(`METHOD must be one of ${METHODS.join(', ')}, got "${method}"`);
  const opts = cmd.optsWithGlobals();
  const format = formatOf(opts.output);
  const body = readData(opts.data);
  const { path, query } = splitPath(rawPath);
  const { profile } = await resolveProfile(opts.profile);
  const answer = await call(profile, upper, path, { query, body, ifMatch: opts.ifMatch });
  printWarnings(answer);
  if (answer.status === 204) console.error('Done (204).');
  else console.log(render(answer.body, format));
}

export function addApiCommand(program: Command): void {
  program
    .command('api')
    .description('send any request: svc api GET /clients?limit=5, svc api POST /clients --data \'{"name":"Acme"}\'')
    .argument('<method>', METHODS.join('|'))
    .argument('<path>', 'path under /api/v3, query string allowed')
    .option('--data <json|@file>', 'JSON body')
    .option('--if-match <etag>', 'send If-Match')
    .action((method: string, path: string, _opts, cmd: Command) => runApi(method, path, cmd));
}
