import assert from 'node:assert/strict';
import { checkEInvoice, type Finding } from '../../../../src/modules/invoice-documents/index.ts';

/** For every test that makes an e-invoice: the EN 16931 and Peppol rules (decision 0062) find nothing in it. */
export function assertNoFindings(xml: string, label = 'e-invoice'): void {
  const findings = checkEInvoice(xml);
  assert.deepEqual(findings.map(describe), [], `${label}: the business rules find nothing`);
}

/** The distinct rule ids the checker reports, sorted. */
export const ruleIds = (xml: string): string[] => [...new Set(checkEInvoice(xml).map((f) => f.rule))].sort();

const describe = (f: Finding) => `[${f.flag}] ${f.rule} at ${f.location}: ${f.message}`;
