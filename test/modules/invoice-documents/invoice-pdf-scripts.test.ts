import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDocumentProxy } from 'unpdf';
import { createTestApp } from '../../helpers.ts';
import { buildDocument } from '../../../src/modules/invoice-documents/invoice-documents.model.ts';
import { renderPdf } from '../../../src/modules/invoice-documents/invoice-documents.pdf.ts';
import { fontOf } from '../../../src/modules/invoice-documents/invoice-documents.fonts.ts';
import { heightOf, write } from '../../../src/modules/invoice-documents/invoice-documents.pdf-text.ts';
import { download, makeInvoice, pdfText } from './fixtures.ts';

const t = await createTestApp();
const squash = (text: string) => text.replace(/\s+/g, ' ');

/** The PDF's font dictionaries as pdfkit writes them (object dictionaries are not compressed). */
function fontsOf(bytes: Uint8Array) {
  const raw = Buffer.from(bytes).toString('latin1');
  return {
    baseFonts: [...raw.matchAll(/\/BaseFont \/([A-Za-z0-9+_-]+)/g)].map((m) => m[1]!),
    descriptors: raw.match(/\/Type \/FontDescriptor/g)?.length ?? 0,
    embedded: raw.match(/\/FontFile[23]? \d+ 0 R/g)?.length ?? 0,
  };
}

const SCRIPTS = {
  seller_name: 'Łódź Usługi Sp. z o.o.',
  client_name: 'Ελληνική Εταιρεία 株式会社',
  snapshot: { seller_address: 'ulica Żółta 5, Łódź', client_contact: 'Příliš žluťoučký kůň <kun@buyer.example>' },
  // The comments run the page's width: a line mixing four scripts and Latin stays one line.
  comments: 'Mixed: Ελληνικά, Русский, 日本語のテキスト, 한국어 in one line',
  rows: [
    { description: 'Консультация по налогам', quantity: '2', unit: 'час', net_price: '50' },
    { description: '中文 会计服务', quantity: '1', unit: '件', net_price: '120' },
    { description: '한국어 세무 상담', quantity: '1', net_price: '80' },
    { description: 'Ελληνικά Русский 日本語 한국어', quantity: '1', net_price: '1' },
  ],
};

test('a PDF with Polish, Czech, Greek, Cyrillic and CJK text: the extracted text is the input, every font embedded', async () => {
  const invoice = await makeInvoice(t, t.tenant, SCRIPTS);
  const res = await download(t, `/invoices/${invoice.id}/document?format=pdf`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  const text = squash(await pdfText(res.bytes));
  for (const expected of [
    'Łódź Usługi Sp. z o.o.',
    'ulica Żółta 5, Łódź',
    'Ελληνική Εταιρεία 株式会社',
    'Příliš žluťoučký kůň',
    'Консультация по налогам',
    'час',
    '中文 会计服务',
    '한국어 세무 상담',
    'Ελληνικά Русский 日本語 한국어',
    'Mixed: Ελληνικά, Русский, 日本語のテキスト, 한국어 in one line',
  ])
    assert.ok(text.includes(expected), `lacks "${expected}":\n${text}`);

  const fonts = fontsOf(res.bytes);
  // Latin, Han and Hangul faces, regular and bold where used; each a subset (XXXXXX+Name) with its file inside.
  assert.ok(fonts.baseFonts.length >= 3, fonts.baseFonts.join(' '));
  assert.ok(
    fonts.baseFonts.every((name) => /^[A-Z]{6}\+Noto/.test(name)),
    fonts.baseFonts.join(' '),
  );
  for (const face of ['NotoSans-', 'NotoSansHans-', 'NotoSansKR-'])
    assert.ok(
      fonts.baseFonts.some((name) => name.includes(`+${face}`)),
      `${face} missing: ${fonts.baseFonts}`,
    );
  assert.equal(fonts.embedded, fonts.descriptors, 'every font descriptor carries its font file');
});

test('a Latin-only PDF embeds only the Latin face, no standard font, and stays small', async () => {
  const invoice = await makeInvoice(t, t.tenant);
  const res = await download(t, `/invoices/${invoice.id}/document?format=pdf`);
  assert.equal(res.status, 200);
  const fonts = fontsOf(res.bytes);
  assert.deepEqual([...new Set(fonts.baseFonts.map((name) => name.split('+')[1]))].sort(), [
    'NotoSans-Bold',
    'NotoSans-Regular',
  ]);
  assert.ok(!/Helvetica|Times|Courier/.test(Buffer.from(res.bytes).toString('latin1')), 'no standard font');
  assert.equal(fonts.embedded, fonts.descriptors);
  assert.ok(res.bytes.length < 120_000, `${res.bytes.length} bytes`);
});

/** A stored invoice as the document model, as the documents service builds it. */
async function modelOf(id: number) {
  const header = await t.db.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const rows = await t.db.db
    .selectFrom('invoice_rows')
    .selectAll()
    .where('invoice_id', '=', id)
    .orderBy('id')
    .execute();
  return buildDocument({ ...header, address_street: null, address_city: null } as never, rows as never);
}

test('PDF/A-3b: an attached file comes back as given, with its relationship, pdfaid 3 in the XMP and sRGB intent', async () => {
  // An emoji no face has is drawn as U+FFFD, not .notdef (PDF/A forbids it); the joiner draws nothing.
  const invoice = await makeInvoice(t, t.tenant, { client_name: 'Αθήνα 株式会社 😀\u200d' });
  const xml = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><rsm:CrossIndustryInvoice/>', 'utf8');
  const extra =
    '<rdf:Description xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#" rdf:about="">' +
    '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName></rdf:Description>';
  const bytes = await renderPdf(await modelOf(invoice.id), {
    pdfa3: {
      attachments: [{ name: 'factur-x.xml', data: xml, mime: 'text/xml', relationship: 'Alternative' }],
      xmp: extra,
    },
  });
  const raw = bytes.toString('latin1');
  assert.match(raw, /^%PDF-1\.7/);
  assert.match(raw, /<pdfaid:part>3<\/pdfaid:part>/);
  assert.match(raw, /<pdfaid:conformance>B<\/pdfaid:conformance>/);
  assert.ok(raw.includes('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>'), 'extra XMP kept');
  assert.match(raw, /\/OutputIntents \[/);
  assert.match(raw, /\/AFRelationship \/Alternative/);
  assert.match(raw, /\/AF \[/);
  const fonts = fontsOf(bytes);
  assert.equal(fonts.embedded, fonts.descriptors, 'PDF/A: every font embedded');

  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const attachments = (await pdf.getAttachments()) as Record<string, { filename: string; content: Uint8Array }>;
  const file = Object.values(attachments).find((a) => a.filename === 'factur-x.xml');
  assert.ok(file, `attachments: ${Object.keys(attachments)}`);
  assert.equal(Buffer.from(file.content).toString('utf8'), xml.toString('utf8'));
  assert.ok(squash(await pdfText(bytes)).includes('Αθήνα 株式会社 \ufffd'), await pdfText(bytes));
  const plain = squash(await pdfText(await renderPdf(await modelOf(invoice.id))));
  assert.ok(plain.includes('Αθήνα 株式会社 \ufffd'), plain);
});

interface Item {
  str: string;
  transform: number[];
  width: number;
}

/** The positioned text pieces of a PDF's first page, as a viewer finds them. */
async function itemsOf(bytes: Uint8Array): Promise<Item[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const content = await (await pdf.getPage(1)).getTextContent();
  return (content.items as Item[]).filter((item) => item.str.trim() !== '');
}

test('a line mixing scripts keeps one baseline: the Greek and the CJK runs of a name sit on the same line', async () => {
  const invoice = await makeInvoice(t, t.tenant, { client_name: 'Ελληνική Εταιρεία 株式会社 한국어 Zephyr' });
  const res = await download(t, `/invoices/${invoice.id}/document?format=pdf`);
  const items = await itemsOf(res.bytes);
  const baseline = (part: string) => items.find((item) => item.str.includes(part))?.transform[5];
  const greek = baseline('Εταιρεία');
  assert.ok(greek !== undefined, items.map((item) => item.str).join('|'));
  for (const part of ['株式会社', '한국어', 'Zephyr']) assert.equal(baseline(part), greek, part);
});

test('right-aligned and centred text of several faces ends at the box edge, runs side by side, wrapped lines exact', async () => {
  const { default: PdfDocument } = await import('pdfkit');
  const doc = new PdfDocument({ size: 'A4', font: fontOf('latin', 'regular') as never });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  write(doc, 'VAT 消費税 10% 부가세', 300, 100, { size: 9 }, { width: 150, align: 'right' });
  write(doc, '中文 centre 한국어', 300, 200, { size: 9 }, { width: 150, align: 'center' });
  const long = 'Latin 中文 more Latin words 日本語 and then wraps 한국어 again and again';
  write(doc, long, 300, 300, { size: 9 }, { width: 150 });
  const height = heightOf(doc, long, { size: 9 }, { width: 150 });
  doc.end();
  await ended;
  const items = await itemsOf(Buffer.concat(chunks));
  const line = (top: number) =>
    items
      .filter((item) => Math.abs(842 - item.transform[5]! - top) < 20)
      .sort((a, b) => a.transform[4]! - b.transform[4]!);
  const right = line(100);
  assert.equal(right.map((item) => item.str.replace(/\s/g, '')).join(''), 'VAT消費税10%부가세');
  for (let n = 1; n < right.length; n++)
    assert.ok(right[n]!.transform[4]! >= right[n - 1]!.transform[4]! + right[n - 1]!.width - 0.01, 'runs overlap');
  const end = right.at(-1)!.transform[4]! + right.at(-1)!.width;
  assert.ok(Math.abs(end - 450) < 0.5, `right edge at ${end}`);
  const centre = line(200);
  const middle = (centre[0]!.transform[4]! + centre.at(-1)!.transform[4]! + centre.at(-1)!.width) / 2;
  assert.ok(Math.abs(middle - 375) < 0.5, `centred at ${middle}`);
  assert.equal(new Set(centre.map((item) => item.transform[5])).size, 1, 'one baseline');
  // The wrapped paragraph: three lines, one Noto Sans line height apart ((1069 + 293) / 1000 em), as heightOf says.
  const lineHeight = (9 * (1069 + 293)) / 1000;
  const baselines = [...new Set(items.filter((item) => 842 - item.transform[5]! > 290).map((i) => i.transform[5]!))];
  assert.equal(baselines.length, 3);
  baselines.slice(1).forEach((y, n) => assert.ok(Math.abs(baselines[n]! - y - lineHeight) < 0.01, `${baselines}`));
  assert.ok(Math.abs(height - 3 * lineHeight) < 0.01, `height ${height}`);
  for (const item of items) assert.ok(item.transform[4]! + item.width <= 450.5, `${item.str} overflows`);
});
