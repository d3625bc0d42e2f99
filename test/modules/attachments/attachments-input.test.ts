import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { createTestApp } from '../../helpers.ts';
import {
  authHeaders,
  dataDir,
  makeTask,
  multipart,
  MULTIPART_TYPE,
  oneFile,
  PDF,
  PNG,
  stagingFiles,
  storedRows,
  upload,
  waitUntilSettled,
  ZIP,
} from './support.ts';

const dir = await dataDir();
const t = await createTestApp({ dataDir: dir });
const taskId = await makeTask(t);
const url = `/tasks/${taskId}/attachments`;

async function refused(body: Buffer, status: number, code: string, label: string) {
  const before = (await storedRows(t)).length;
  const res = await upload(t, url, body);
  assert.equal(res.status, status, `${label}: ${res.text}`);
  assert.equal(res.body.error.code, code, label);
  assert.equal((await storedRows(t)).length, before, `${label}: a record was stored`);
  assert.deepEqual(await stagingFiles(dir), [], `${label}: a staged file was left`);
  return res.body.error;
}

test('names, extensions and declared types are checked before the bytes (415 family)', async () => {
  const cases: Array<[string, Buffer, string]> = [
    ['an executable', oneFile('setup.exe', 'MZ\x90\x00', 'application/octet-stream'), 'BLOCKED_EXTENSION'],
    ['a script', oneFile('run.ps1', 'Write-Host hi', 'text/plain'), 'BLOCKED_EXTENSION'],
    ['a jar in disguise', oneFile('app.JAR', ZIP, 'application/zip'), 'BLOCKED_EXTENSION'],
    ['an HTML page', oneFile('page.html', '<script>alert(1)</script>', 'text/html'), 'BLOCKED_EXTENSION'],
    ['a type outside the allowlist', oneFile('notes.txt', 'hi', 'application/x-msdownload'), 'UNSUPPORTED_MIME'],
    ['an unlisted extension', oneFile('model.xyz', 'hi', 'application/octet-stream'), 'UNSUPPORTED_EXTENSION'],
    ['no extension', oneFile('README', 'hi'), 'UNSUPPORTED_EXTENSION'],
    ['declared PDF named .png', oneFile('photo.png', PNG, 'application/pdf'), 'MIME_MISMATCH'],
  ];
  for (const [label, body, code] of cases) await refused(body, 415, code, label);
});

test('bytes that are not what the name says: 415 MIME_MISMATCH', async () => {
  const cases: Array<[string, Buffer]> = [
    ['a ZIP named .pdf', oneFile('invoice.pdf', ZIP, 'application/pdf')],
    ['a PDF named .png', oneFile('photo.png', PDF)],
    ['text named .pdf', oneFile('paper.pdf', 'just words')],
    ['a PNG named .txt', oneFile('notes.txt', PNG)],
    ['text with a NUL byte', oneFile('notes.txt', 'a\u0000b')],
    ['text that is not UTF-8', oneFile('notes.txt', Buffer.from([0x61, 0xff, 0xfe, 0x62]))],
    ['JSON that does not parse', oneFile('data.json', '{"a": 1', 'application/json')],
    ['XML that does not start with <', oneFile('data.xml', 'hello <a/>', 'application/xml')],
    ['an SVG without <svg>', oneFile('logo.svg', '<html></html>', 'image/svg+xml')],
    ['an email without headers', oneFile('mail.eml', 'hello there', 'message/rfc822')],
  ];
  for (const [label, body] of cases) await refused(body, 415, 'MIME_MISMATCH', label);
});

test('text formats pass by their content rules', async () => {
  const cases: Array<[string, string, string]> = [
    ['data.json', '\uFEFF [1, {"a": "ü"}]', 'application/json'],
    ['data.xml', '<?xml version="1.0"?><a>ü</a>', 'application/xml'],
    ['table.csv', 'a;b\n1;2\n', 'text/csv'],
    ['mail.eml', 'From: a@example.com\r\nSubject: hi\r\n\r\nbody\r\n', 'message/rfc822'],
    ['archive.zip', '', 'application/zip'],
  ];
  for (const [name, text, type] of cases) {
    const res = await upload(t, url, oneFile(name, name.endsWith('.zip') ? ZIP : text, type));
    assert.equal(res.status, 201, `${name}: ${res.text}`);
    assert.equal(res.body.data.content_type, type);
    assert.equal((await waitUntilSettled(t, res.body.data.id)).status, 'ready', name);
  }
});

test('an SVG carrying a script is accepted but only ever served as a sandboxed download', async () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
  const res = await upload(t, url, oneFile('logo.svg', svg, 'image/svg+xml'));
  assert.equal(res.status, 201, res.text);
  await waitUntilSettled(t, res.body.data.id);
  const file = await fetch(`${t.baseUrl}/api/v3/attachments/${res.body.data.id}/download`, {
    headers: authHeaders(t.tenant),
  });
  assert.equal(file.status, 200);
  assert.match(file.headers.get('content-disposition')!, /^attachment; /);
  assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(file.headers.get('content-security-policy'), "default-src 'none'; sandbox");
  assert.equal(await file.text(), svg);
});

test('file names: a path is cut to its last part; NUL, control characters and 1,000 characters are refused', async () => {
  const climbing = await upload(t, url, oneFile('../../etc/evil.txt', 'x'));
  assert.equal(climbing.status, 201, climbing.text);
  assert.equal(climbing.body.data.file_name, 'evil.txt');
  const windows = await upload(t, url, oneFile('..\\..\\boot.txt', 'x'));
  assert.equal(windows.body.data.file_name, 'boot.txt');
  const nul = await refused(oneFile('a\u0000.txt', 'x'), 400, 'VALIDATION_ERROR', 'NUL');
  assert.equal(nul.details.field, 'file');
  await refused(oneFile('a\u0007b.txt', 'x'), 400, 'VALIDATION_ERROR', 'control character');
  await refused(oneFile(`${'n'.repeat(996)}.txt`, 'x'), 400, 'VALIDATION_ERROR', '1,000 characters');
  await refused(oneFile('..', 'x'), 400, 'VALIDATION_ERROR', 'dots only');
  const longest = await upload(t, url, oneFile(`${'ü'.repeat(251)}.txt`, 'x'));
  assert.equal(longest.status, 201, longest.text);
});

test('a zero-byte file is refused with 400 VALIDATION_ERROR (EMPTY_FILE)', async () => {
  const error = await refused(oneFile('empty.txt', ''), 400, 'VALIDATION_ERROR', 'empty');
  assert.equal(error.details.reason, 'EMPTY_FILE');
});

test('the form must hold exactly one part, a file named file', async () => {
  const two = multipart([
    { name: 'file', filename: 'a.txt', data: 'a' },
    { name: 'file', filename: 'b.txt', data: 'b' },
  ]);
  await refused(two, 400, 'VALIDATION_ERROR', 'two files');
  await refused(multipart([{ name: 'note', data: 'hello' }]), 400, 'VALIDATION_ERROR', 'a text field only');
  await refused(
    multipart([
      { name: 'file', filename: 'a.txt', data: 'a' },
      { name: 'note', data: 'hello' },
    ]),
    400,
    'VALIDATION_ERROR',
    'a file and a text field',
  );
  await refused(multipart([{ name: 'upload', filename: 'a.txt', data: 'a' }]), 400, 'VALIDATION_ERROR', 'wrong name');
  await refused(multipart([]), 400, 'VALIDATION_ERROR', 'no parts');
  await refused(Buffer.from('not multipart at all'), 400, 'VALIDATION_ERROR', 'garbage');
});

test('a JSON body (or none) is 415 UNSUPPORTED_MEDIA_TYPE; bad ids are 400', async () => {
  const json = await t.request('POST', url, { body: { file: 'x' } });
  assert.equal(json.status, 415);
  assert.equal(json.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  const empty = await t.request('POST', url);
  assert.equal(empty.status, 415);
  for (const id of ['abc', '0', '99999999999', '1e3']) {
    const res = await upload(t, `/tasks/${id}/attachments`, oneFile('a.txt', 'a'));
    assert.equal(res.status, 400, id);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', id);
  }
});

/** Sends raw bytes on a socket and answers what came back (empty when the server just closed). */
function rawRequest(head: string, body: Buffer, then: 'end' | 'destroy' | 'wait'): Promise<string> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('connect', () => {
      socket.write(head);
      socket.write(body);
      // end: half-close (the body stops short of its length); destroy: the client vanishes; wait: for the answer.
      if (then === 'end') socket.end();
      else if (then === 'destroy') socket.destroy();
    });
    setTimeout(() => reject(new Error('no answer')), 20_000).unref();
  });
}

const headOf = (length: number) =>
  `POST /api/v3${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
  Object.entries(authHeaders(t.tenant))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('') +
  `Content-Type: ${MULTIPART_TYPE}\r\nContent-Length: ${length}\r\n\r\n`;

/**
 * The client's socket can close before the server has even opened the staged file (its open runs on the thread
 * pool), so one empty look proves nothing: the folder must stay empty for a while, within 10 s.
 */
async function stagingEmptied(): Promise<void> {
  let emptyLooks = 0;
  for (let i = 0; i < 500 && emptyLooks < 10; i++) {
    emptyLooks = (await stagingFiles(dir)).length === 0 ? emptyLooks + 1 : 0;
    await delay(20);
  }
  assert.deepEqual(await stagingFiles(dir), []);
}

test('a body cut off mid-upload stores nothing and leaves no staged file', async () => {
  const before = (await storedRows(t)).length;
  const body = oneFile('big.txt', 'a'.repeat(512 * 1024));
  const answer = await rawRequest(headOf(body.length), body.subarray(0, 300 * 1024), 'destroy');
  assert.equal(answer, '');
  await stagingEmptied();
  assert.equal((await storedRows(t)).length, before);
});

test('a Content-Length that lies: shorter cuts the form (400), longer never completes it (nothing stored)', async () => {
  const before = (await storedRows(t)).length;
  const body = oneFile('lie.txt', 'b'.repeat(64 * 1024));
  // The bytes past a short Content-Length would be parsed as a next request: the form itself ends early.
  const shorter = await rawRequest(headOf(body.length - 100), body.subarray(0, body.length - 100), 'wait');
  assert.match(shorter, /^HTTP\/1\.1 400 /);
  assert.match(shorter, /VALIDATION_ERROR/);
  const longer = await rawRequest(headOf(body.length + 5000), body, 'end');
  assert.doesNotMatch(longer, /^HTTP\/1\.1 2/);
  await stagingEmptied();
  assert.equal((await storedRows(t)).length, before);
});
