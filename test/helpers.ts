import { after } from 'node:test';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { createCompany, addMember } from '../src/modules/companies/companies.service.ts';
import { loadModules } from '../src/modules/index.ts';
import { generateKey } from '../src/platform/keys.ts';
import { expandScopes } from '../src/platform/scopes.ts';
import { defaultWebDir } from '../src/platform/web-host.ts';
import { cloneDatabase } from './clone.ts';
import { watchContract } from './support/contract.ts';
import type { UndeclaredError } from '../src/platform/error-handler.ts';

/** Tests that need only a database can import it from ./clone.ts without loading the app. */
export { cloneDatabase };

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export type KeyName = 'admin' | 'write' | 'read' | 'personal' | 'personalAdmin';

export interface TenantFixture {
  companyId: string;
  ownerPersonId: number;
  memberPersonId: number;
  keys: Record<KeyName, string>;
  keyIds: Record<KeyName, number>;
}

export interface RequestOptions {
  key?: KeyName | string | null;
  company?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  tenant?: TenantFixture;
}

export interface TestApp {
  app: App;
  baseUrl: string;
  db: Database;
  tenant: TenantFixture;
  logs: string[];
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>;
  newTenant(options?: { timezone?: string; name?: string }): Promise<TenantFixture>;
  close(): Promise<void>;
}

async function insertKey(
  db: Database,
  companyId: string,
  personId: number,
  kind: 'integration' | 'personal',
  scopes: string[],
) {
  const key = generateKey();
  const row = await db.db
    .insertInto('api_keys')
    .values({
      company_id: companyId,
      name: `test ${kind} ${scopes.join('+')}`,
      key_prefix: key.prefix,
      key_hash: key.hash,
      kind,
      scopes: expandScopes(scopes),
      person_id: personId,
      revoked_at: null,
      expires_at: null,
      grace_expires_at: null,
      rotated_to_id: null,
      ip_allowlist: null,
      last_used_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { fullKey: key.fullKey, id: row.id };
}

/** A company with an owner, a plain member, and keys of every kind: admin, write, read, personal (member), personal (owner). */
export async function makeTenant(
  db: Database,
  options: { timezone?: string; name?: string } = {},
): Promise<TenantFixture> {
  const company = await createCompany(
    db.db,
    {
      name: options.name ?? 'Test Co',
      timezone: options.timezone ?? 'UTC',
      owner: { name: 'Olive', surname: 'Owner', email: 'olive@test.example' },
    },
    loadModules().seeders,
  );
  const member = await addMember(db.db, company.company_id, {
    name: 'Mark',
    surname: 'Member',
    email: 'mark@test.example',
    role: 'member',
    status: 'active',
  });
  const specs: Record<KeyName, [number, 'integration' | 'personal', string[]]> = {
    admin: [company.owner.person_id, 'integration', ['admin']],
    write: [company.owner.person_id, 'integration', ['write']],
    read: [company.owner.person_id, 'integration', ['read']],
    personal: [member.person_id, 'personal', ['read', 'write']],
    personalAdmin: [company.owner.person_id, 'personal', ['read', 'write']],
  };
  const keys = {} as Record<KeyName, string>;
  const keyIds = {} as Record<KeyName, number>;
  for (const [name, [person, kind, scopes]] of Object.entries(specs) as Array<
    [KeyName, [number, 'integration' | 'personal', string[]]]
  >) {
    const key = await insertKey(db, company.company_id, person, kind, scopes);
    keys[name] = key.fullKey;
    keyIds[name] = key.id;
  }
  return {
    companyId: company.company_id,
    ownerPersonId: company.owner.person_id,
    memberPersonId: member.person_id,
    keys,
    keyIds,
  };
}

/**
 * Builds the real app on a fresh database, listening on a loopback port; closed after the file's tests.
 * `extra.redis`: an ioredis client the app counts rate limits in (the caller owns and closes it).
 * `extra.web`: serve the built web application (dist/web) at `/`, as `npm start` does.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  env: NodeJS.ProcessEnv = {},
  extra: { redis?: Redis; web?: boolean } = {},
): Promise<TestApp> {
  const url = await cloneDatabase();
  const config: Config = {
    ...loadConfig({ SVC_RATE_LIMIT_READ: '0', SVC_RATE_LIMIT_WRITE: '0', SVC_RATE_LIMIT_ADDRESS: '0', ...env }),
    databaseUrl: url,
    ...overrides,
  };
  // The pool carries the statement time-outs, as the server's does (src/main.ts).
  const { statementTimeoutMs, reportStatementTimeoutMs } = config;
  const db = openDatabase(url, {
    max: config.pool.size ?? 10,
    waitMs: config.pool.waitMs,
    statementTimeoutMs,
    reportStatementTimeoutMs,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const undeclared: UndeclaredError[] = [];
  const app = await buildApp({
    config,
    db,
    logStream,
    onUndeclaredError: (violation) => undeclared.push(violation),
    redis: extra.redis,
    ...(extra.web ? { webDir: defaultWebDir() } : {}),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const tenant = await makeTenant(db);
  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> => {
    const t = options.tenant ?? tenant;
    const headers: Record<string, string> = { ...options.headers };
    const company = options.company === undefined ? t.companyId : options.company;
    if (company !== null) headers['x-service-company'] = company;
    const key = options.key === undefined ? 'admin' : options.key;
    if (key !== null) headers['x-api-key'] = key in t.keys ? t.keys[key as KeyName] : key;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(
      `${address}${path.startsWith('/api') || path.startsWith('/operator') || path.startsWith('/docs') || path.startsWith('/redoc') || path.startsWith('/llms') ? '' : '/api/v3'}${path}`,
      {
        method,
        headers,
        body:
          options.body === undefined
            ? undefined
            : typeof options.body === 'string'
              ? options.body
              : JSON.stringify(options.body),
        redirect: 'manual',
      },
    );
    const text = await response.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: response.status, headers: response.headers, body, text };
  };
  const testApp: TestApp = {
    app,
    baseUrl: address,
    db,
    tenant,
    logs,
    request,
    newTenant: (options) => makeTenant(db, options),
    close: async () => {
      await app.close();
      await db.close();
    },
  };
  after(() => testApp.close());
  // Every answer this file receives from the app is checked against the document it serves (test/support/contract.ts);
  // registered after close, so a failing check cannot leave the app open and the file hanging. An error code a route
  // answers without declaring it fails the file there too (error-handler.ts).
  watchContract(address, () => app.swagger() as never, undeclared);
  return testApp;
}
