// Progress of a long backup or restore on a terminal: one line per table, its row count moving. Anywhere else
// (a pipe, a log, --json) the command prints only its summary line.

export interface Progress {
  phase(text: string): void;
  rows(table: string, rows: number): void;
  tableDone(table: string, rows: number): void;
  attachment(count: number): void;
  end(): void;
}

export const silent: Progress = {
  phase: () => {},
  rows: () => {},
  tableDone: () => {},
  attachment: () => {},
  end: () => {},
};

const number = new Intl.NumberFormat('en-US');
/** Redraws at most this often: a table of millions of rows must not spend its time printing. */
const REDRAW_MS = 200;

/** Writes to stderr, so stdout keeps only the result. */
export function terminalProgress(out: NodeJS.WriteStream = process.stderr): Progress {
  let last = 0;
  let open = false;
  const draw = (text: string, final: boolean) => {
    const now = Date.now();
    if (!final && now - last < REDRAW_MS) return;
    last = now;
    out.write(`\r\x1b[2K${text}${final ? '\n' : ''}`);
    open = !final;
  };
  return {
    phase: (text) => draw(text, true),
    rows: (table, rows) => draw(`  ${table}: ${number.format(rows)} rows`, false),
    tableDone: (table, rows) => {
      if (rows > 0) draw(`  ${table}: ${number.format(rows)} rows`, true);
    },
    attachment: (count) => draw(`  attachments: ${number.format(count)} files`, false),
    end: () => {
      if (open) out.write('\n');
      open = false;
    },
  };
}

export const progressFor = (json: boolean): Progress =>
  !json && process.stdout.isTTY && process.stderr.isTTY ? terminalProgress() : silent;

export const formatNumber = (n: number) => number.format(n);
