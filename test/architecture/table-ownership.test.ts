// Modules own their tables (docs/architecture.md, "Who owns which tables"): every query names only tables its module
// declares, or a pair of the commented allow-list, and every table of the schema has exactly one owner.
import test from 'node:test';
import assert from 'node:assert/strict';
import { areaOf, readAllSql, schemaTables } from '../../scripts/sql-statements.ts';
import { collectModules, type ServiceModule } from '../../src/platform/modules.ts';
import { MODULES } from '../../src/modules/index.ts';
import { ALLOWED_FOREIGN_TABLES } from './table-ownership.allowed.ts';

const owners = collectModules(MODULES).tableOwners;
const uses = readAllSql().flatMap((source) => source.uses.map((use) => ({ ...use, area: areaOf(use.file) })));
const foreign = uses.filter((use) => owners[use.table] !== use.area);

test('every table of the schema has exactly one owner', () => {
  const tables = schemaTables();
  assert.deepEqual(
    tables.filter((table) => !owners[table]),
    [],
    'declare these tables in their module (tables: […]) or in src/platform/tables.ts',
  );
  assert.deepEqual(
    Object.keys(owners).filter((table) => !tables.includes(table)),
    [],
    'no such table in src/db/schema.ts',
  );
});

test('collectModules refuses a table declared twice', () => {
  const twice = (name: string): ServiceModule => ({ name, tables: ['taxes'] });
  assert.throws(() => collectModules([twice('a'), twice('b')]), /table "taxes" is declared twice/);
});

test('a module queries only the tables it owns, or those of the allow-list', () => {
  const offenders = foreign
    .filter((use) => ALLOWED_FOREIGN_TABLES[use.area]?.[use.table] === undefined)
    .map((use) => `${use.area} uses ${use.table} (owned by ${owners[use.table]}) at src/${use.file}:${use.line}`);
  assert.deepEqual(
    offenders,
    [],
    "use the owner's export from its index.ts instead of its table, or add a commented entry " +
      'to test/architecture/table-ownership.allowed.ts saying why',
  );
});

test('the allow-list names only pairs still in use', () => {
  const stale = Object.entries(ALLOWED_FOREIGN_TABLES).flatMap(([area, tables]) =>
    Object.keys(tables)
      .filter((table) => !foreign.some((use) => use.area === area && use.table === table))
      .map((table) => `${area} → ${table}`),
  );
  assert.deepEqual(stale, [], 'remove these entries from test/architecture/table-ownership.allowed.ts');
});
