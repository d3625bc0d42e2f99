// The tenant rule cannot be forgotten: tenantTable and scoped (platform/tenant-table.ts) add the company predicate
// themselves; raw SQL that compares company_id to a value (`company_id = ${…}`, `in (${…})`, `= any(${…})`) writes
// it by hand, and says so with a `tenant: deliberate SQL` comment, so that a reviewer checks every table has one.
//
// Covered means: a comment holding the marker stands between the start of the top-level declaration holding the
// statement (its leading comments included) and the statement itself; or, in one of FILE_WIDE only, anywhere above
// the statement in the file. Predicates correlating two aliases (`x.company_id = c.company_id`, also written
// `x.company_id = ${sql.ref('c.company_id')}` or `= ${alias}.company_id`) do not count.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readAllSql, type SourceSql, type SqlStatement } from '../../scripts/sql-statements.ts';

const MARKER = 'tenant: deliberate SQL';
// An interpolation followed by a dot is an alias (`${alias}.company_id`), so no value either.
const PREDICATE = /\b(?:\w+\.)?company_id\s*(?:=\s*any\s*\(|in\s*\(|=)\s*\$\d+(?![\d.])/gi;

/** Files whose single marker above covers every statement below it: each says so in its marker. */
const FILE_WIDE = new Set([
  'modules/billing/billing.clients.ts',
  'modules/billing/billing.work.repository.ts',
  'modules/reports/reports.bi.repository.ts',
  'modules/reports/reports.repository.ts',
  'modules/reports/reports.sql.ts',
  'modules/workflow-templates/instances.repository.ts',
]);

function covered(source: SourceSql, statement: SqlStatement): boolean {
  const from = FILE_WIDE.has(source.file) ? 0 : statement.declarationStart;
  return source.comments.some((c) => c.text.includes(MARKER) && c.pos >= from && c.pos < statement.start);
}

const sources = readAllSql();
const predicates = sources.flatMap((source) =>
  source.statements.flatMap((statement) =>
    [...statement.bare.matchAll(PREDICATE)].map((match) => ({ source, statement, predicate: match[0] })),
  ),
);

test('every hand-written company predicate in raw SQL is marked `tenant: deliberate SQL`', () => {
  const unmarked = predicates
    .filter(({ source, statement }) => !covered(source, statement))
    .map(({ statement, predicate }) => `src/${statement.file}:${statement.line} (${statement.fn}): ${predicate}`);
  assert.deepEqual(
    unmarked,
    [],
    `use tenantTable or scoped (platform/tenant-table.ts), or put a "// ${MARKER} — why" comment above the statement`,
  );
});

test('the predicate reading finds what it should', () => {
  // Lower since raw SQL names most predicates through tenant(ctx, alias) (platform/tenant-table.ts).
  assert.ok(predicates.length > 10, `only ${predicates.length} company predicates found in raw SQL`);
  const bare =
    'where a.company_id = $1 and b.company_id = a.company_id and b.company_id = ref$4 and c.company_id = $5.company_id and company_id in ($2) or company_id = any($3)';
  assert.deepEqual(
    [...bare.matchAll(PREDICATE)].map((m) => m[0]),
    ['a.company_id = $1', 'company_id in ($2', 'company_id = any($3'],
  );
});
