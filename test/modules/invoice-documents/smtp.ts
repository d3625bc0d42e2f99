import { after } from 'node:test';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** How the server answers RCPT TO: take the mail, or refuse it (temporarily) at the SMTP level; bounce@ is always refused. */
export type SmtpMode = 'accept' | 'refuse';

/** A real SMTP server on 127.0.0.1 (random port) that keeps what it receives; stopped after the file's tests. */
export async function startSmtp() {
  const received: ReceivedMail[] = [];
  const state = { mode: 'accept' as SmtpMode, refusals: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce@'))
        return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      if (state.mode === 'accept') return callback();
      state.refusals++;
      const error = Object.assign(new Error('Mailbox temporarily unavailable (test refusal)'), { responseCode: 451 });
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${port}`, received, state };
}

/** Header value of a MIME part or message (unfolded). */
export function headerOf(head: string, name: string): string | undefined {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded);
  return match?.[1]?.trim();
}

/** Splits a raw multipart message by hand into its parts (headers and decoded body). */
export function mimeParts(raw: string): Array<{ head: string; body: Buffer }> {
  const [top = ''] = raw.split(/\r?\n\r?\n/, 1);
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headerOf(top, 'Content-Type') ?? '')?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const split = part.replace(/^\r?\n/, '').search(/\r?\n\r?\n/);
      const text = part.replace(/^\r?\n/, '');
      const head = text.slice(0, split);
      const body = text.slice(split).trim();
      const encoding = headerOf(head, 'Content-Transfer-Encoding')?.toLowerCase();
      return {
        head,
        body: encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : Buffer.from(body),
      };
    });
}

/** The mail's text part as written (quoted-printable undone). */
export function textOf(mail: ReceivedMail): string {
  const split = mail.raw.search(/\r?\n\r?\n/);
  const head = mail.raw.slice(0, split);
  const body = mail.raw.slice(split).trim();
  if (headerOf(head, 'Content-Transfer-Encoding')?.toLowerCase() !== 'quoted-printable') return body;
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
