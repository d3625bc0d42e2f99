// `svc invoices download ID --format pdf|ubl [--out file]`: the invoice document route's bytes, as sent.
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { resolveProfile } from './config.ts';
import { usage } from './errors.ts';
import { download } from './http.ts';

const FORMATS = ['pdf', 'ubl'];

/** The server's file name (Content-Disposition), else invoice-<id>.<ext>. */
function fileName(disposition: string | null, id: string, format: string): string {
  const named = disposition?.match(/filename="?([^";]+)"?/)?.[1];
  const safe = named?.replace(/[/\\\0]/g, '_');
  return safe || `invoice-${id}.${format === 'ubl' ? 'xml' : 'pdf'}`;
}

async function runDownload(id: string, cmd: Command): Promise<void> {
  const opts = cmd.optsWithGlobals();
  const format = (opts.format as string) ?? 'pdf';
  if (!FORMATS.includes(format)) throw usage(`--format must be one of ${FORMATS.join(', ')}, got "${format}"`);
  if (!/^\d+$/.test(id)) throw usage(`<invoice_id> must be an integer, got "${id}"`);
  const { profile } = await resolveProfile(opts.profile);
  const { headers, bytes } = await download(profile, `/invoices/${id}/document`, { query: { format } });
  if (opts.out === '-') {
    process.stdout.write(bytes);
    return;
  }
  const out = (opts.out as string | undefined) ?? fileName(headers.get('content-disposition'), id, format);
  await writeFile(out, bytes);
  console.error(`Saved ${out} (${bytes.length} bytes, ${headers.get('content-type') ?? 'unknown type'}).`);
}

export function addDownloadCommand(invoices: Command): void {
  invoices
    .command('download')
    .description('save the invoice as PDF or EN 16931 UBL XML (GET /invoices/{invoice_id}/document)')
    .argument('<invoice_id>')
    .option('--format <format>', 'pdf or ubl', 'pdf')
    .option('--out <file>', "where to write it ('-' for stdout; default: the server's file name)")
    .action((id: string, _opts, cmd: Command) => runDownload(id, cmd));
}
