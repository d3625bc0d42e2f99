// Shared by the backup tests: a company with a task and a ready attachment on a running service, a load of
// client writes, and the per-table rows and SHA-256 of a database read the way a backup reads it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { SESSION_SETTINGS, type Manifest } from '../../src/backup/format.ts';
import { runCli, type Service } from '../main/support.ts';

/** A 1×1 PNG: a type the upload accepts by its bytes. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface Tenant {
  baseUrl: string;
  headers: Record<string, string>;
}

export async function listening(service: Service): Promise<string> {
  const [, baseUrl] = await service.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+) /);
  return baseUrl!;
}

export async function createTenant(baseUrl: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<Tenant> {
  const created = await runCli(dataDir, ['company', 'create', '--name', 'Backup Co', '--json'], env);
  assert.equal(created.code, 0, created.stderr);
  const { company_id, api_key } = JSON.parse(created.stdout) as { company_id: string; api_key: { full_key: string } };
  return { baseUrl, headers: { 'x-service-company': company_id, 'x-api-key': api_key.full_key } };
}

export async function call(tenant: Tenant, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${tenant.baseUrl}/api/v3${path}`, {
    method,
    headers: { ...tenant.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

/** A task with the PNG attached, waited for until the attachment is ready (its bytes checked in the background). */
export async function attachment(tenant: Tenant): Promise<number> {
  const task = await call(tenant, 'POST', '/tasks', { title: 'With a file' });
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'dot.png');
  const upload = await fetch(`${tenant.baseUrl}/api/v3/tasks/${task.id}/attachments`, {
    method: 'POST',
    headers: tenant.headers,
    body: form,
  });
  assert.equal(upload.status, 201, await upload.clone().text());
  const { id } = ((await upload.json()) as { data: { id: number } }).data;
  for (let i = 0; i < 200; i++) {
    if ((await call(tenant, 'GET', `/attachments/${id}`)).status === 'ready') return id;
    await sleep(100);
  }
  throw new Error('the attachment never became ready');
}

/** Writes clients one after another until stopped; `acked` holds the ids whose 201 has arrived, in order. */
export function writeLoad(tenant: Tenant) {
  const acked: number[] = [];
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) acked.push((await call(tenant, 'POST', '/clients', { name: `Load ${i}` })).id);
  })();
  return {
    acked,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** Every table of the manifest read back as the backup reads it: its rows and the SHA-256 of its COPY text. */
export async function tableChecksums(url: string, manifest: Manifest): Promise<Record<string, [number, string]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const setting of SESSION_SETTINGS) await client.query(setting);
    const out: Record<string, [number, string]> = {};
    for (const table of manifest.tables) {
      const columns = table.columns.map((c) => client.escapeIdentifier(c)).join(', ');
      const hash = createHash('sha256');
      let rows = 0;
      const stream = client.query(copyTo(`COPY ${client.escapeIdentifier(table.name)} (${columns}) TO STDOUT`));
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        for (const byte of chunk) if (byte === 0x0a) rows++;
      }
      out[table.name] = [rows, hash.digest('hex')];
    }
    return out;
  } finally {
    await client.end();
  }
}

export const expectedChecksums = (manifest: Manifest) =>
  Object.fromEntries(manifest.data.map((part) => [part.name, [part.rows, part.sha256]]));

/** A new, empty database on the test server. */
export async function emptyDatabase(suffix: string): Promise<string> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL!;
  const name = `svc_t_${process.env.TEST_RUN_ID ?? 'adhoc'}_bk_${suffix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
