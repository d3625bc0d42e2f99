// A static reading of the SQL under src/: the raw-SQL statements (sql`…` templates and sql.raw('…')) and every table
// a query names, raw or through Kysely, found in the TypeScript syntax tree so that comments and strings are never
// mistaken for code. The table-ownership, tenant-predicate and SQL-snapshot tests and `npm run sql:snapshots` read it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SRC = path.join(ROOT, 'src');

/** One raw-SQL statement: where it is written and its text, interpolations shown as `${<expression source>}`. */
export interface SqlStatement {
  /** Relative to src/. */
  file: string;
  line: number;
  /** The nearest named function, method or variable around it ('(top level)' when there is none). */
  fn: string;
  text: string;
  /** The text with each interpolation as `$n` (`ref$n` for a column reference): what tables and predicates are read from. */
  bare: string;
  /** Start and end offsets in the source file. */
  start: number;
  end: number;
  /** Where the top-level declaration holding it starts, its leading comments included. */
  declarationStart: number;
}

/** A comment of the source (never text inside a string or template). */
export interface SourceComment {
  pos: number;
  text: string;
}

/** A table a query names: in raw SQL, or as a Kysely builder's or a tenant-table helper's argument. */
export interface TableUse {
  file: string;
  line: number;
  table: string;
  via: string;
}

export interface SourceSql {
  file: string;
  text: string;
  statements: SqlStatement[];
  uses: TableUse[];
  comments: SourceComment[];
}

const BUILDER_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'mergeInto',
  'with',
]);
const SCOPED_METHODS = new Set(['select', 'update', 'delete', 'insert']);
const COLUMN_REF = /^(?:sql\.)?ref\(/;
const RAW_TABLE = /\b(?:from|join|into|update|using)\s+([a-z_][a-z0-9_]*)/gi;

/** The tables of `interface DB` in src/db/schema.ts. */
export function schemaTables(): string[] {
  const source = readFileSync(path.join(SRC, 'db/schema.ts'), 'utf8');
  const body = source.slice(source.indexOf('export interface DB {'));
  return [...body.slice(0, body.indexOf('\n}')).matchAll(/^ {2}([a-z_0-9]+):/gm)].map((m) => m[1]!);
}

export function sourceFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out.sort();
}

const isSqlTag = (tag: ts.Expression): boolean =>
  (ts.isIdentifier(tag) && tag.text === 'sql') ||
  (ts.isPropertyAccessExpression(tag) && isSqlTag(tag.expression) && tag.name.text !== 'raw');

const isSqlRaw = (node: ts.CallExpression): boolean =>
  ts.isPropertyAccessExpression(node.expression) &&
  node.expression.name.text === 'raw' &&
  ts.isIdentifier(node.expression.expression) &&
  node.expression.expression.text === 'sql';

/** A template's or string's text twice: interpolations as their source, and as `$n`. */
function templateText(node: ts.Node, source: ts.SourceFile): { text: string; bare: string } | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { text: node.text, bare: node.text };
  if (!ts.isTemplateExpression(node)) return undefined;
  let text = node.head.text;
  let bare = node.head.text;
  node.templateSpans.forEach((span, i) => {
    const expression = span.expression.getText(source);
    text += '${' + expression + '}' + span.literal.text;
    // A column reference is no value: `x.company_id = ${sql.ref('c.company_id')}` correlates two rows.
    bare += (COLUMN_REF.test(expression) ? `ref$${i + 1}` : `$${i + 1}`) + span.literal.text;
  });
  return { text, bare };
}

/** A named function's name: a declaration, a method, or a function assigned to a variable or property. */
function functionName(node: ts.Node): string | undefined {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) return node.name?.getText();
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return undefined;
  const holder = node.parent;
  return ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) ? holder.name.getText() : undefined;
}

/** The nearest named function around a node, else the variable or property it is assigned to. */
function enclosingName(node: ts.Node): string {
  let holder: string | undefined;
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    const name = functionName(at);
    if (name) return name;
    if (!holder && (ts.isVariableDeclaration(at) || ts.isPropertyAssignment(at))) holder = at.name.getText();
  }
  return holder ?? '(top level)';
}

const stringArg = (node: ts.Expression | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

/** The table a Kysely builder or tenant helper call names, if its argument is a literal. */
function builderTable(node: ts.CallExpression): { table: string; via: string } | undefined {
  const callee = node.expression;
  if (ts.isIdentifier(callee) && callee.text === 'tenantTable') {
    const table = stringArg(node.arguments[0]);
    return table ? { table, via: 'tenantTable' } : undefined;
  }
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const method = callee.name.text;
  const scopedCall = ts.isIdentifier(callee.expression) && callee.expression.text === 'scoped';
  if (scopedCall && SCOPED_METHODS.has(method)) {
    const table = stringArg(node.arguments[1]);
    return table ? { table, via: `scoped.${method}` } : undefined;
  }
  if (!BUILDER_METHODS.has(method)) return undefined;
  const table = stringArg(node.arguments[0])
    ?.split(/\s+as\s+/i)[0]
    ?.trim();
  return table ? { table, via: method } : undefined;
}

/** Table names after from/join/into/update in a statement's text (SQL line comments left out). */
export function rawTables(bare: string, tables: ReadonlySet<string>): string[] {
  const code = bare.replace(/--[^\n]*/g, '');
  return [...code.matchAll(RAW_TABLE)].map((m) => m[1]!.toLowerCase()).filter((t) => tables.has(t));
}

function declarationStart(node: ts.Node): number {
  let at = node;
  while (at.parent && !ts.isSourceFile(at.parent)) at = at.parent;
  return at.getFullStart();
}

/** Every comment, found as the leading or trailing trivia of some node. */
function commentsOf(source: ts.SourceFile): SourceComment[] {
  const found = new Map<number, string>();
  const text = source.text;
  const visit = (node: ts.Node): void => {
    const ranges = [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
    ];
    for (const range of ranges) found.set(range.pos, text.slice(range.pos, range.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found].sort(([a], [b]) => a - b).map(([pos, comment]) => ({ pos, text: comment }));
}

function lineOf(source: ts.SourceFile, pos: number): number {
  return source.getLineAndCharacterOfPosition(pos).line + 1;
}

/** Every raw statement and table use of one source text (file: its path relative to src/). */
export function readSql(file: string, text: string, tables: ReadonlySet<string>): SourceSql {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const statements: SqlStatement[] = [];
  const uses: TableUse[] = [];
  const addStatement = (node: ts.Node, body: ts.Node) => {
    const rendered = templateText(body, source);
    if (!rendered) return;
    const start = node.getStart(source);
    const line = lineOf(source, start);
    const fn = enclosingName(node);
    statements.push({ file, line, fn, ...rendered, start, end: node.end, declarationStart: declarationStart(node) });
    for (const table of rawTables(rendered.bare, tables)) uses.push({ file, line, table, via: 'raw SQL' });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && isSqlTag(node.tag)) addStatement(node, node.template);
    if (ts.isCallExpression(node) && isSqlRaw(node) && node.arguments[0]) addStatement(node, node.arguments[0]);
    if (ts.isCallExpression(node)) {
      const found = builderTable(node);
      if (found && tables.has(found.table)) uses.push({ file, line: lineOf(source, node.getStart(source)), ...found });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  statements.sort((a, b) => a.start - b.start);
  return { file, text, statements, uses, comments: commentsOf(source) };
}

/** The SQL of every file under src/. */
export function readAllSql(): SourceSql[] {
  const tables = new Set(schemaTables());
  return sourceFiles().map((full) => readSql(path.relative(SRC, full), readFileSync(full, 'utf8'), tables));
}

/** Who answers for a file's queries: its module folder under src/modules, else its top folder under src/. */
export function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'modules' && parts.length > 2) return parts[1]!;
  return parts.length > 1 ? parts[0]! : 'platform';
}
