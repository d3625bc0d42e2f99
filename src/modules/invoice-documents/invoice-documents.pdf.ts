import { Dec } from '../../platform/money.ts';
import { fontOf, printable } from './invoice-documents.fonts.ts';
import { heightOf, write, type Pdf, type Style } from './invoice-documents.pdf-text.ts';
import { attach, pdfaSettings, type PdfOptions } from './invoice-documents.pdfa.ts';
import { formatDecimal, localeOf, type Locale } from './invoice-documents.labels.ts';
import { isUntaxed, shownPlaces, type DocumentLine, type InvoiceDocument } from './invoice-documents.model.ts';

const LEFT = 50;
const RIGHT = 545;
const BOTTOM = 842 - 70;
const WIDTH = RIGHT - LEFT;

/** The rows table: x, width and alignment of each column. */
const COLUMNS = {
  description: { x: 50, width: 168, align: 'left' },
  quantity: { x: 220, width: 46, align: 'right' },
  unit: { x: 270, width: 40, align: 'left' },
  unitPrice: { x: 312, width: 64, align: 'right' },
  discount: { x: 378, width: 40, align: 'right' },
  vat: { x: 420, width: 40, align: 'right' },
  net: { x: 462, width: 83, align: 'right' },
} as const;
type Column = keyof typeof COLUMNS;

interface Ctx {
  doc: Pdf;
  locale: Locale;
  model: InvoiceDocument;
  places: number;
}

const SMALL: Style = { size: 9 };
const CELL: Style = { size: 8.5 };
const NAME: Style = { size: 11, bold: true };
const FOOT: Style = { size: 8 };

const amount = (c: Ctx, value: string) => formatDecimal(c.locale, value, c.places);
const decimal = (c: Ctx, value: string) => {
  const exact = new Dec(value).toFixed();
  return formatDecimal(c.locale, exact, exact.split('.')[1]?.length ?? 0);
};

/** label: value lines, skipping empty values. */
function fields(
  c: Ctx,
  x: number,
  y: number,
  width: number,
  pairs: Array<[string, string | null | undefined]>,
): number {
  const { doc } = c;
  for (const [label, value] of pairs) {
    if (!value) continue;
    const text = label ? `${label}: ${value}` : value;
    write(doc, text, x, y, SMALL, { width });
    y += heightOf(doc, text, SMALL, { width }) + 2;
  }
  return y;
}

/** "Invoice", or "Credit note" on a credit note, in the invoice's language. */
const titleOf = (c: Ctx) =>
  c.model.invoice.type === 'credit_note' ? c.locale.labels.creditNote : c.locale.labels.invoice;

function header(c: Ctx): number {
  const { doc, model, locale } = c;
  const l = locale.labels;
  const i = model.invoice;
  write(doc, titleOf(c), LEFT, 50, { size: 20, bold: true }, { width: 250 });
  write(doc, i.seller_name, LEFT, 82, NAME, { width: 250 });
  const sellerEnd = fields(c, LEFT, 98, 250, [
    ['', i.seller_address],
    [l.regCode, i.seller_reg_code],
    [l.vatCode, i.seller_vat_code],
    [l.contact, i.seller_contact],
  ]);
  const metaEnd = fields(c, 330, 52, 215, [
    [l.invoiceNumber, i.invoice_number ?? model.label],
    [l.credits, i.credited_number && `${i.credited_number} (${locale.date(i.credited_date ?? '')})`],
    [l.invoiceDate, locale.date(i.invoice_date)],
    [l.dueDate, locale.date(i.due_date)],
    [l.referenceNumber, i.reference_number],
    [l.period, i.period_label],
    [l.currency, i.currency],
  ]);
  const top = Math.max(sellerEnd, metaEnd) + 16;
  write(doc, l.buyer, LEFT, top, { ...SMALL, bold: true });
  write(doc, i.client_name, LEFT, top + 13, NAME, { width: 300 });
  return (
    fields(c, LEFT, top + 29, 300, [
      ['', i.client_address],
      [l.regCode, i.client_reg_code],
      [l.vatCode, i.client_vat_code],
      [l.contact, i.client_contact],
    ]) + 18
  );
}

function cells(c: Ctx, y: number, values: Record<Column, string>, bold = false): number {
  const { doc } = c;
  const style = { ...CELL, bold };
  let height = 0;
  for (const [name, column] of Object.entries(COLUMNS) as Array<[Column, (typeof COLUMNS)[Column]]>) {
    write(doc, values[name], column.x, y, style, { width: column.width, align: column.align });
    height = Math.max(height, heightOf(doc, values[name], style, { width: column.width }));
  }
  return y + height + 4;
}

function tableHeader(c: Ctx, y: number): number {
  const l = c.locale.labels;
  const end = cells(
    c,
    y,
    {
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPrice,
      discount: l.discount,
      vat: l.vat,
      net: l.net,
    },
    true,
  );
  c.doc
    .moveTo(LEFT, end - 2)
    .lineTo(RIGHT, end - 2)
    .lineWidth(0.5)
    .stroke();
  return end + 2;
}

function lineValues(c: Ctx, line: DocumentLine): Record<Column, string> {
  const { row } = line;
  const discount = new Dec(row.discount_rate);
  return {
    description: row.description ?? '',
    quantity: decimal(c, row.quantity),
    unit: row.unit ?? '',
    unitPrice: formatDecimal(c.locale, row.net_price, Math.max(2, new Dec(row.net_price).decimalPlaces())),
    discount: discount.isZero() ? '' : decimal(c, row.discount_rate),
    vat: isUntaxed(line.category) ? '-' : `${decimal(c, line.percent)}%`,
    net: amount(c, line.net),
  };
}

/** Height a row will take: its tallest cell (descriptions wrap). */
function rowHeight(c: Ctx, values: Record<Column, string>): number {
  return Math.max(
    ...(Object.keys(COLUMNS) as Column[]).map((k) => heightOf(c.doc, values[k], CELL, { width: COLUMNS[k].width })),
  );
}

function rows(c: Ctx, y: number): number {
  y = tableHeader(c, y);
  for (const line of c.model.lines) {
    const values = lineValues(c, line);
    if (y + rowHeight(c, values) > BOTTOM) {
      c.doc.addPage();
      y = tableHeader(c, 50);
    }
    y = cells(c, y, values);
  }
  c.doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  return y + 10;
}

/** Keeps a block of the given height on one page. */
function room(c: Ctx, y: number, height: number): number {
  if (y + height <= BOTTOM) return y;
  c.doc.addPage();
  return 50;
}

function pair(c: Ctx, y: number, label: string, value: string, bold = false): number {
  const style = { ...SMALL, bold };
  write(c.doc, label, 305, y, style, { width: 145, align: 'right' });
  write(c.doc, value, 455, y, style, { width: 90, align: 'right' });
  return y + 14;
}

/** The VAT breakdown's columns: rate (and tax names), taxable amount, tax. */
const TAX_COLUMNS = [
  { x: LEFT, width: 95, align: 'left' },
  { x: 147, width: 85, align: 'right' },
  { x: 234, width: 56, align: 'right' },
] as const;

function taxLine(c: Ctx, y: number, values: [string, string, string], bold = false): number {
  const { doc } = c;
  const style = { ...CELL, bold };
  let height = 0;
  TAX_COLUMNS.forEach((column, n) => {
    write(doc, values[n], column.x, y, style, { width: column.width, align: column.align });
    height = Math.max(height, heightOf(doc, values[n], style, { width: column.width }));
  });
  return y + height + 3;
}

function taxesAndTotals(c: Ctx, y: number): number {
  const { locale, model } = c;
  const l = locale.labels;
  y = room(c, y, 16 * (model.taxes.length + 7));
  let left = taxLine(c, y, [l.taxBreakdown, l.taxable, l.taxAmount], true);
  for (const group of model.taxes) {
    const rate = isUntaxed(group.category) ? l.noTax : `${l.vat} ${decimal(c, group.percent)}%`;
    const names = group.names.length > 0 ? ` (${group.names.join(', ')})` : '';
    left = taxLine(c, left, [`${rate}${names}`, amount(c, group.taxable), amount(c, group.tax)]);
  }
  const currency = ` ${model.invoice.currency}`;
  let right = pair(c, y, l.totalNet, amount(c, model.totals.net) + currency);
  right = pair(c, right, l.totalTax, amount(c, model.totals.tax) + currency);
  right = pair(c, right, l.total, amount(c, model.totals.total) + currency, true);
  right = pair(c, right, l.paid, amount(c, model.totals.paid) + currency);
  right = pair(c, right, l.toPay, amount(c, model.totals.due) + currency, true);
  return Math.max(left, right) + 12;
}

function comments(c: Ctx, y: number): void {
  const text = printable(c.model.invoice.comments);
  if (!text) return;
  y = room(c, y, heightOf(c.doc, text, SMALL, { width: WIDTH }) + 14);
  write(c.doc, c.locale.labels.comments, LEFT, y, { ...SMALL, bold: true });
  write(c.doc, text, LEFT, y + 13, SMALL, { width: WIDTH });
}

/** On every page: bank details and page number at the foot, and the stamp of a draft or annulled invoice. */
function decoratePages(c: Ctx): void {
  const { doc, model, locale } = c;
  const l = locale.labels;
  const i = model.invoice;
  const bank = [
    i.seller_name,
    i.seller_bank && `${l.bank}: ${i.seller_bank}`,
    i.seller_iban && `${l.iban}: ${i.seller_iban}`,
  ];
  const stamp = i.status === 'draft' ? 'DRAFT' : i.status === 'annulled' ? 'ANNULLED' : undefined;
  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    const foot = bank.filter(Boolean).join('  |  ');
    const pageNo = `${titleOf(c)} ${model.label}  |  ${l.page} ${page - range.start + 1}/${range.count}`;
    write(doc, foot, LEFT, 842 - 55, FOOT, { width: WIDTH - 170, lineBreak: false });
    write(doc, pageNo, RIGHT - 165, 842 - 55, FOOT, { width: 165, align: 'right', lineBreak: false });
    if (stamp) {
      doc
        .save()
        .rotate(-35, { origin: [297, 421] })
        .fillColor('#c00000')
        .fillOpacity(0.18);
      write(doc, stamp, 0, 360, { size: 110, bold: true }, { width: 595, align: 'center', lineBreak: false });
      doc.restore();
    }
  }
}

/**
 * The invoice as a PDF a person would send: A4, every font embedded (subsets of the Noto faces that the
 * text needs), so any script prints and the text can be searched and copied.
 */
export async function renderPdf(model: InvoiceDocument, options: PdfOptions = {}): Promise<Buffer> {
  // Loaded on the first document, not at start: pdfkit and its font tables are ~3 MB of module code.
  const { default: PdfDocument } = await import('pdfkit');
  const doc = new PdfDocument({
    size: 'A4',
    margins: { top: 50, bottom: 20, left: LEFT, right: 50 },
    bufferPages: true,
    // The default font is opened at construction: ours, so no standard (unembedded) font is ever written.
    font: fontOf('latin', 'regular') as never,
    info: { Title: printable(`Invoice ${model.label}`), Author: printable(model.invoice.seller_name ?? '') },
    ...pdfaSettings(options),
  });
  attach(doc, options);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const c: Ctx = {
    doc,
    locale: localeOf(model.invoice.locale_code),
    model,
    places: shownPlaces(model.invoice.currency),
  };
  comments(c, taxesAndTotals(c, rows(c, header(c))));
  decoratePages(c);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
