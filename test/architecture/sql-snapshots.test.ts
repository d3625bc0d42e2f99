// Every raw-SQL statement has a checked-in snapshot (immich style), so a query's text change shows in review, and
// docs/architecture.md lists the table owners as the modules declare them. Both are written by npm run sql:snapshots.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ARCHITECTURE_DOC, ownersList, snapshots, snapshotsOnDisk, withOwners } from '../../scripts/sql-snapshots.ts';
import { readSql } from '../../scripts/sql-statements.ts';
import { collectModules } from '../../src/platform/modules.ts';
import { MODULES } from '../../src/modules/index.ts';

const RUN = 'the SQL snapshots are out of date: run npm run sql:snapshots and review the difference';

test('the SQL snapshots are those of the sources', () => {
  const expected = snapshots();
  const onDisk = snapshotsOnDisk();
  const names = [...new Set([...expected.keys(), ...onDisk.keys()])].sort();
  const stale = names.filter((name) => expected.get(name) !== onDisk.get(name));
  assert.deepEqual(stale, [], RUN);
});

test('docs/architecture.md lists the table owners the modules declare', () => {
  const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
  assert.equal(doc, withOwners(doc, ownersList(collectModules(MODULES).tableOwners)), RUN);
});

test('the SQL reading handles comments, nested templates and typed tags', () => {
  const source = [
    '// sql`select 1 from tasks` in a comment is not SQL',
    'function outer(ctx) {',
    '  return sql<{ n: number }>`select count(*) from clients c where c.company_id = ${ctx.companyId}',
    '    and exists (${sql`select 1 from projects p where p.client_id = c.id`})`;',
    '}',
    "const raw = sql.raw('delete from notes');",
    "const q = (db) => db.selectFrom('topics as tp').innerJoin('tasks as t', 't.topic_id', 'tp.id');",
  ].join('\n');
  const read = readSql('x.ts', source, new Set(['tasks', 'clients', 'projects', 'notes', 'topics']));
  assert.deepEqual(
    read.statements.map((s) => [s.fn, s.text]),
    [
      [
        'outer',
        'select count(*) from clients c where c.company_id = ${ctx.companyId}\n' +
          '    and exists (${sql`select 1 from projects p where p.client_id = c.id`})',
      ],
      ['outer', 'select 1 from projects p where p.client_id = c.id'],
      ['raw', 'delete from notes'],
    ],
  );
  assert.deepEqual(
    read.uses.map((u) => `${u.table} ${u.via}`),
    ['clients raw SQL', 'projects raw SQL', 'notes raw SQL', 'tasks innerJoin', 'topics selectFrom'],
  );
});
