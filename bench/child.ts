// The IPC protocol between the harness and the HTTP servers it forks (the service and the floors):
// the child reports its port once listening, answers memory and CPU samples, and stops on request.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ToChild = { type: 'memory'; gc?: boolean } | { type: 'stop' };
export interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** CPU time used so far, user and system, in microseconds (process.cpuUsage()). */
  cpuMicros: number;
}
export type FromChild = { type: 'ready'; port: number } | ({ type: 'memory' } & Memory);

declare const gc: (() => void) | undefined;

function send(message: FromChild): void {
  process.send?.(message);
}

/** Called by a forked server once it listens. `close` releases its pool before the process exits. */
export function answerControl(server: Server, close: () => Promise<void>): void {
  send({ type: 'ready', port: (server.address() as AddressInfo).port });
  process.on('message', (message: ToChild) => {
    if (message.type === 'memory') {
      // A collection first shows what is still referenced (a leak), not garbage not yet collected.
      if (message.gc && typeof gc === 'function') gc();
      const usage = process.memoryUsage();
      const cpu = process.cpuUsage();
      send({
        type: 'memory',
        rss: usage.rss,
        heapUsed: usage.heapUsed,
        heapTotal: usage.heapTotal,
        external: usage.external,
        cpuMicros: cpu.user + cpu.system,
      });
    } else if (message.type === 'stop') {
      close().finally(() => process.exit(0));
    }
  });
  // The harness dying must not leave a server behind.
  process.on('disconnect', () => void close().finally(() => process.exit(0)));
}
