import assert from 'node:assert/strict';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { TenantFixture, TestApp } from '../../helpers.ts';

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** A real ZIP holding a.txt ("hi"), made by zip(1). */
export const ZIP = Buffer.from(
  'UEsDBAoAAAAAAJ2Vd116em/tAwAAAAMAAAAFABwAYS50eHRVVAkAA6mJBGupiQRrdXgLAAEEAAAAAAQAAAAAaGkKUEsBAh4DCgAAAAAAnZV3XXp6b+0DAAAAAwAAAAUAGAAAAAAAAQAAAKSBAAAAAGEudHh0VVQFAAOpiQRrdXgLAAEEAAAAAAQAAAAAUEsFBgAAAAABAAEASwAAAEIAAAAAAA==',
  'base64',
);

export const dataDir = () => mkdtemp(path.join(tmpdir(), 'svc-attachments-'));

export interface Part {
  name: string;
  filename?: string;
  /** The raw filename parameter bytes, when a test needs what no FormData would send. */
  rawFilename?: Buffer;
  type?: string;
  data: Buffer | string;
}

const BOUNDARY = '----svc-test-boundary-7d1f';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart body written by hand, so tests can send what browsers never would (NUL in a name, two files). */
export function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const name = part.rawFilename ?? (part.filename === undefined ? undefined : Buffer.from(part.filename));
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"`),
      name ? Buffer.concat([Buffer.from('; filename="'), name, Buffer.from('"')]) : Buffer.alloc(0),
      Buffer.from(`\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

export function authHeaders(tenant: TenantFixture, key: string = 'admin'): Record<string, string> {
  return {
    'x-service-company': tenant.companyId,
    'x-api-key': key in tenant.keys ? tenant.keys[key as keyof TenantFixture['keys']] : key,
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** POSTs a multipart body to an upload path (relative to /api/v3). */
export async function upload(
  t: TestApp,
  urlPath: string,
  body: Buffer | FormData,
  options: { tenant?: TenantFixture; key?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    ...authHeaders(options.tenant ?? t.tenant, options.key),
    ...options.headers,
  };
  if (Buffer.isBuffer(body)) headers['content-type'] = MULTIPART_TYPE;
  return answer(await fetch(`${t.baseUrl}/api/v3${urlPath}`, { method: 'POST', headers, body }));
}

export const oneFile = (filename: string, data: Buffer | string, type?: string) =>
  multipart([{ name: 'file', filename, type, data }]);

/** Polls the metadata until verification has finished (no fixed sleep: a short pause between polls only). */
export async function waitUntilSettled(t: TestApp, id: number, tenant?: TenantFixture): Promise<any> {
  for (let attempt = 0; attempt < 1500; attempt++) {
    const res = await t.request('GET', `/attachments/${id}`, { tenant });
    assert.equal(res.status, 200, res.text);
    if (res.body.data.status !== 'processing') return res.body.data;
    await delay(20);
  }
  assert.fail(`attachment ${id} stayed processing`);
}

export async function makeTask(t: TestApp, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/tasks', { body: { title: 'Task with files' }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

export async function makeNote(t: TestApp, tenant: TenantFixture = t.tenant): Promise<number> {
  const row = await t.db.db
    .insertInto('notes')
    .values({ company_id: tenant.companyId, related_type: 'client', related_id: 1, comments: 'Note with files' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every file under the data folder's staging area: must be empty once a request is over. */
export async function stagingFiles(dir: string): Promise<string[]> {
  return readdir(path.join(dir, 'tmp')).catch(() => []);
}

export const storedRows = (t: TestApp, companyId = t.tenant.companyId) =>
  t.db.db.selectFrom('attachments').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
