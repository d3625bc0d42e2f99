import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Raw header pairs, to see exactly what was sent (e.g. Host). */
  rawHeaders: string[];
  raw: Buffer;
  body: any;
  at: number;
}

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

export type Handler = (request: Received, index: number) => Answer | Promise<Answer>;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  handle(handler: Handler): void;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that records every request; answers 200 unless told otherwise. */
export async function startReceiver(path = '/hook', host = '127.0.0.1'): Promise<Receiver> {
  const received: Received[] = [];
  let handler: Handler = () => ({ status: 200, body: 'ok' });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let body: any;
      try {
        body = JSON.parse(raw.toString());
      } catch {
        body = undefined;
      }
      const entry: Received = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        raw,
        body,
        at: performance.now(),
      };
      received.push(entry);
      const answer = await handler(entry, received.length - 1);
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, answer.headers ?? { 'content-type': 'text/plain' });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    port,
    received,
    handle: (h) => {
      handler = h;
    },
    waitFor: async (count, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  after(() => receiver.close());
  return receiver;
}
