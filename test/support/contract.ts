// The contract test (decision 0057): every answer a test file receives from a test app's /api/v3 (through
// t.request or a raw fetch) is checked against the OpenAPI document that app serves: the status is declared for the
// operation, the declared required headers are present, every service header sent is declared, and the body matches
// the declared schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses). The file fails in an `after` hook listing them.
import { appendFileSync, readFileSync } from 'node:fs';
import { after } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { HEADER_COMPONENTS } from '../../src/platform/openapi-headers.ts';
import type { UndeclaredError } from '../../src/platform/error-handler.ts';

type Json = Record<string, any>;
interface Operation {
  pattern: RegExp;
  params: number;
  method: string;
  name: string;
  responses: Json;
}
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: () => Promise<string | undefined>;
}

const SERVICE_HEADERS = Object.keys(HEADER_COMPONENTS).filter((name) => !name.startsWith('Content-'));
const PREFIX = '/api/v3';

export class Contract {
  private operations?: Operation[];
  private ajv?: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly pending: Promise<void>[] = [];
  exchanges = 0;
  /** Answers with at least one mismatch, and each mismatch found (an answer can have several). */
  differing = 0;
  readonly mismatches: string[] = [];

  private readonly documentOf: () => Json;
  constructor(documentOf: () => Json) {
    this.documentOf = documentOf;
  }

  private load(): Operation[] {
    if (this.operations) return this.operations;
    // CONTRACT_DOCUMENT=<file>: check against a saved document instead (to measure an older one).
    const saved = process.env.CONTRACT_DOCUMENT;
    const document = JSON.parse(saved ? readFileSync(saved, 'utf8') : JSON.stringify(this.documentOf())) as Json;
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ ...document, $id: 'openapi' });
    this.headers = document.components?.headers ?? {};
    const operations: Operation[] = [];
    for (const [url, item] of Object.entries(document.paths as Json))
      for (const [method, op] of Object.entries(item as Json)) {
        const source = url.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
        const name = `${method.toUpperCase()} ${url}`;
        operations.push({
          pattern: new RegExp(`^${source}$`),
          params: (url.match(/\{/g) ?? []).length,
          method: method.toUpperCase(),
          name,
          responses: (op as Json).responses ?? {},
        });
      }
    // A literal path wins over a template that also matches it (/clients/merge before /clients/{client_id}).
    return (this.operations = operations.sort((a, b) => a.params - b.params));
  }

  private headers: Json = {};

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv!.compile({ $ref: `openapi#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  record(exchange: Exchange): void {
    const path = exchange.path.split('?')[0]!.slice(PREFIX.length) || '/';
    const op = this.load().find((o) => o.method === exchange.method && o.pattern.test(path));
    if (!op) return; // Not an operation of the document (an unknown path's 404, the documents' own pages).
    this.exchanges += 1;
    let counted = false;
    const fail = (what: string) => {
      if (!counted) this.differing += 1;
      counted = true;
      this.mismatches.push(`${op.name} → ${exchange.status}: ${what}`);
    };
    const response = op.responses[String(exchange.status)] as Json | undefined;
    if (!response) return fail('status not declared');
    this.checkHeaders(response, exchange.headers, fail);
    this.pending.push(this.checkBody(op, response, exchange, fail).catch((e) => fail(`body unreadable: ${e}`)));
  }

  private checkHeaders(response: Json, headers: Headers, fail: (what: string) => void): void {
    const declared = new Map<string, Json>();
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      const definition = header.$ref ? this.headers[String(header.$ref).split('/').pop()!] : header;
      declared.set(name.toLowerCase(), definition ?? {});
      if (definition?.required && !headers.has(name)) fail(`required header ${name} missing`);
    }
    for (const name of SERVICE_HEADERS)
      if (headers.has(name) && !declared.has(name.toLowerCase())) fail(`header ${name} sent but not declared`);
  }

  private async checkBody(op: Operation, response: Json, exchange: Exchange, fail: (what: string) => void) {
    const type = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const content = (response.content ?? {}) as Json;
    const declared = Object.keys(content);
    const media = declared.find((m) => m.split(';')[0]!.trim() === type) ?? declared.find((m) => m === '*/*');
    const text = await exchange.body();
    if (!text) return void (declared.length > 0 && exchange.status !== 204 && fail('empty body, content declared'));
    if (!media) return fail(`content type ${type || '(none)'} not declared (${declared.join(', ') || 'no content'})`);
    if (!type.includes('json')) return;
    const pointer = `/paths/${escape(op.name.split(' ')[1]!)}/${op.method.toLowerCase()}/responses/${exchange.status}/content/${escape(media)}/schema`;
    const validate = this.validator(pointer);
    if (!validate(JSON.parse(text)))
      fail(`body: ${validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
  }

  async settle(): Promise<void> {
    await Promise.race([Promise.all(this.pending), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  }
}

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

const contracts = new Map<string, Contract>();
let realFetch: typeof fetch | undefined;

/** Reads a response's body for the check without taking it from the test (a JSON copy; other bodies are left). */
function bodyOf(response: globalThis.Response): () => Promise<string | undefined> {
  const json = (response.headers.get('content-type') ?? '').includes('json');
  const empty =
    !response.body || !response.headers.has('content-type') || response.headers.get('content-length') === '0';
  if (!json || empty) return async () => (empty ? undefined : 'binary');
  const copy = response.clone();
  return () => copy.text();
}

function watchingFetch(): typeof fetch {
  return async (input, init) => {
    const response = await realFetch!(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const contract = contracts.get(url.origin);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (contract && url.pathname.startsWith(`${PREFIX}/`))
      contract.record({
        method,
        path: url.pathname,
        status: response.status,
        headers: response.headers,
        body: bodyOf(response),
      });
    return response;
  };
}

/** Findings not yet reported, and apps whose checks have not settled: the last one to settle reports them all. */
const unreported: string[] = [];
let open = 0;
let counts = { exchanges: 0, differing: 0 };

/**
 * Checks every answer of the test app at `baseUrl` (in this process) against the document it serves. Each app's
 * `after` hook only collects (a hook that throws skips the later ones, and another app would stay open and the file
 * hang); the last to run throws with them all. CONTRACT_LOG=<file> appends each app's figures (one JSON line).
 */
export function watchContract(baseUrl: string, documentOf: () => Json, undeclared: UndeclaredError[] = []): void {
  const contract = new Contract(documentOf);
  contracts.set(new URL(baseUrl).origin, contract);
  open += 1;
  if (!realFetch) {
    realFetch = globalThis.fetch;
    globalThis.fetch = watchingFetch();
  }
  after(async () => {
    await contract.settle();
    open -= 1;
    // The error handler's findings (every request, inject included): a code the route's declaration does not list.
    for (const v of undeclared) contract.mismatches.push(`${v.method} ${v.url} → ${v.code}: error code not declared`);
    const unique = [...new Set(contract.mismatches)];
    if (process.env.CONTRACT_LOG)
      appendFileSync(
        process.env.CONTRACT_LOG,
        `${JSON.stringify({ file: process.argv[1], exchanges: contract.exchanges, mismatched: contract.differing, unique })}\n`,
      );
    unreported.push(...unique);
    counts = { exchanges: counts.exchanges + contract.exchanges, differing: counts.differing + contract.differing };
    if (open > 0 || unreported.length === 0) return;
    const report = unreported.splice(0);
    throw new Error(
      `${counts.differing} of ${counts.exchanges} answers (and ${undeclared.length} undeclared error codes) differ ` +
        `from the OpenAPI document:\n` +
        report.slice(0, 40).join('\n'),
    );
  });
}
