import { fatal, type EInvoice, type Finding, type RuleGroup } from './einvoice.model.ts';
import { parseXml, type XmlNode } from './einvoice.xml.ts';
import { readUbl } from './einvoice.ubl.ts';
import { readCii } from './einvoice.cii.ts';
import { coreRules } from './rules.core.ts';
import { totalsRules } from './rules.totals.ts';
import { vatRules } from './rules.vat.ts';
import { codeRules } from './rules.codes.ts';
import { peppolRules } from './rules.peppol.ts';

/**
 * checkEInvoice: the EN 16931 and Peppol BIS 3 business rules over an e-invoice, in our own code (decision 0062).
 * A syntax binding reads the document into business terms; the rule groups read only those. Bindings: UBL
 * (Invoice, CreditNote) and UN/CEFACT CII; a new syntax is one more entry in BINDINGS.
 */
const BINDINGS: ((root: XmlNode) => EInvoice | undefined)[] = [readUbl, readCii];
const GROUPS: RuleGroup[] = [coreRules, totalsRules, vatRules, codeRules, peppolRules];

export function readEInvoice(xml: string): EInvoice | undefined {
  const root = parseXml(xml);
  if (!root) return undefined;
  for (const bind of BINDINGS) {
    const doc = bind(root);
    if (doc) return doc;
  }
  return undefined;
}

/** Every finding, fatal and warning; an empty list means the document breaks none of the rules checked. */
export function checkEInvoice(xml: string): Finding[] {
  const doc = readEInvoice(xml);
  if (!doc) return [fatal('SYNTAX', 'Not a well-formed UBL Invoice or CreditNote, or CII CrossIndustryInvoice.', '/')];
  return GROUPS.flatMap((group) => group(doc));
}

export type { Finding } from './einvoice.model.ts';
