// The staleness check scripts/test.ts runs before any test: src/db/schema.ts must be exactly what
// scripts/gen-schema.ts makes of the freshly migrated template, and if not, say what differs.
import { readFile } from 'node:fs/promises';
import { generateSchema, SCHEMA_FILE } from './gen-schema.ts';

/** Lines grouped by the top-level declaration they belong to, so a report can name the table. */
function declarations(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let name = '(header)';
  for (const line of text.split('\n')) {
    name = /^export (?:interface|type|const) (\w+)/.exec(line)?.[1] ?? name;
    out.set(name, out.get(name) ?? []);
    out.get(name)!.push(line);
  }
  return out;
}

const describe = (name: string) =>
  name.endsWith('Table')
    ? `table ${name
        .slice(0, -5)
        .replace(/(?<=.)([A-Z])/g, '_$1')
        .toLowerCase()}`
    : name;

/** What differs between two schema texts, per declaration; empty when they are the same. */
export function describeDrift(committed: string, generated: string): string[] {
  const before = declarations(committed);
  const after = declarations(generated);
  const out: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(name) ?? [];
    const now = after.get(name) ?? [];
    if (old.join('\n') === now.join('\n')) continue;
    const removed = old.filter((l) => !now.includes(l)).map((l) => `  - ${l.trim()}`);
    const added = now.filter((l) => !old.includes(l)).map((l) => `  + ${l.trim()}`);
    out.push(
      `${describe(name)}${before.has(name) ? (after.has(name) ? '' : ' (gone)') : ' (new)'}:`,
      ...removed,
      ...added,
    );
    if (removed.length + added.length === 0) out.push('  (same lines, another order)');
  }
  return out;
}

/** Null when src/db/schema.ts matches the database at `url`, else a report of what differs. */
export async function schemaDrift(url: string): Promise<string | null> {
  const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
  const lines = describeDrift(committed, await generateSchema(url));
  if (lines.length === 0) return null;
  const shown = lines.length > 60 ? [...lines.slice(0, 60), `  ... ${lines.length - 60} more lines`] : lines;
  return [
    'src/db/schema.ts does not match the migrated database:',
    ...shown,
    'Run `npm run db:schema` to regenerate it (and commit the result).',
  ].join('\n');
}
