// Answers on stdout: json (what the API sent), a table for people, csv for spreadsheets.
// Table and CSV are small enough to write here; no installed library declares them as its own.
import { usage } from './errors.ts';

export type Format = 'table' | 'json' | 'csv';
export const FORMATS: Format[] = ['table', 'json', 'csv'];

/** -o as given, else a table on a terminal and JSON in a pipe. */
export function formatOf(option: string | undefined): Format {
  if (option === undefined) return process.stdout.isTTY ? 'table' : 'json';
  if (!FORMATS.includes(option as Format)) throw usage(`-o must be one of ${FORMATS.join(', ')}, got "${option}"`);
  return option as Format;
}

type Row = Record<string, unknown>;
const MAX_CELL = 48;

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

function columnsOf(rows: Row[]): string[] {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return columns;
}

const clip = (value: string) => {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
};

function table(header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((row) => row.map(clip));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

/** RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled. */
const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const csv = (header: string[], rows: string[][]) =>
  [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');

/** A list: one row per record. */
export function renderList(rows: Row[], format: Format, envelope: unknown): string {
  if (format === 'json') return JSON.stringify(envelope, null, 2);
  const columns = columnsOf(rows);
  const body = rows.map((row) => columns.map((c) => text(row[c])));
  if (format === 'csv') return csv(columns, body);
  return rows.length ? table(columns, body) : '(no records)';
}

/** One record: field/value lines in a table, one row in CSV. */
export function renderRecord(record: unknown, format: Format, envelope: unknown): string {
  if (format === 'json' || record === null || typeof record !== 'object' || Array.isArray(record))
    return JSON.stringify(format === 'json' ? envelope : record, null, 2);
  const row = record as Row;
  if (format === 'csv') return renderList([row], 'csv', envelope);
  return table(
    ['field', 'value'],
    Object.entries(row).map(([key, value]) => [key, text(value)]),
  );
}

/** Whatever the API answered: a list envelope, a single record, or nothing (204). */
export function render(body: unknown, format: Format): string {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (body === undefined) return '';
  if (Array.isArray(data)) return renderList(data as Row[], format, body);
  if (data !== undefined) return renderRecord(data, format, body);
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}
