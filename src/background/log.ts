import type { Log } from '../platform/log.ts';

export type { Log };

/** One JSON line per entry on stdout, for the stand-alone worker process. */
export function jsonLog(level = 'info'): Log {
  const quiet = level === 'silent';
  const write = (lvl: string) => (obj: object, msg: string) => {
    if (quiet || (level === 'warn' && lvl === 'info') || (level === 'error' && lvl !== 'error')) return;
    process.stdout.write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), msg, ...obj })}\n`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
