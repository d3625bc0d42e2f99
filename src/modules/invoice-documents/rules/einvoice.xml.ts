import { XMLParser } from 'fast-xml-parser';
import type { At } from './einvoice.model.ts';

/**
 * A read-only view of a parsed XML element that knows where it sits (an XPath-like location for findings).
 * Namespace prefixes are dropped, so a document is read the same whatever prefixes it chose; every element is
 * parsed as a list, so repeated elements are counted, never silently merged.
 */
type Raw = string | Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

export class XmlNode {
  readonly name: string;
  readonly at: string;
  private readonly raw: Raw;

  constructor(name: string, raw: Raw, at: string) {
    this.name = name;
    this.raw = raw;
    this.at = at;
  }

  /** The child elements called `name`, in document order. */
  all(name: string): XmlNode[] {
    if (typeof this.raw === 'string') return [];
    const list = this.raw[name];
    if (!Array.isArray(list)) return [];
    return list.map((raw, i) => new XmlNode(name, raw as Raw, `${this.at}/${name}[${i + 1}]`));
  }

  one(name: string): XmlNode | undefined {
    return this.all(name)[0];
  }

  /** The first element down a path of names, e.g. path('Party', 'PostalAddress'). */
  path(...names: string[]): XmlNode | undefined {
    let node: XmlNode | undefined = this;
    for (const name of names) node = node?.one(name);
    return node;
  }

  text(): string {
    if (typeof this.raw === 'string') return this.raw;
    const text = this.raw['#text'];
    return typeof text === 'string' ? text.trim() : '';
  }

  attr(name: string): string | undefined {
    if (typeof this.raw === 'string') return undefined;
    const value = this.raw[`@_${name}`];
    return typeof value === 'string' ? value : undefined;
  }

  /** Every child element, in name order, for walks over the whole document. */
  children(): XmlNode[] {
    if (typeof this.raw === 'string') return [];
    return Object.keys(this.raw)
      .filter((key) => !key.startsWith('@_') && key !== '#text')
      .flatMap((key) => this.all(key));
  }

  isEmpty(): boolean {
    return this.children().length === 0 && this.text() === '';
  }

  /** The text of the element down `names` with its location, or undefined when it is absent. */
  value(...names: string[]): At | undefined {
    const node = this.path(...names);
    return node ? { value: node.text(), at: node.at } : undefined;
  }
}

/** The document's root element, or undefined when the text is not XML with one root. */
export function parseXml(xml: string): XmlNode | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = parser.parse(xml, true) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const roots = Object.keys(parsed).filter((key) => !key.startsWith('?') && !key.startsWith('@_'));
  if (roots.length !== 1) return undefined;
  const list = parsed[roots[0]!];
  const raw = Array.isArray(list) ? list[0] : list;
  return new XmlNode(roots[0]!, raw as Raw, `/${roots[0]}`);
}

/** Every element below (and with) `node`, depth first. */
export function* walk(node: XmlNode): Generator<XmlNode> {
  yield node;
  for (const child of node.children()) yield* walk(child);
}
