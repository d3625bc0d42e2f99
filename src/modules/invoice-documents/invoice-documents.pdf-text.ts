import type PDFDocument from 'pdfkit';
import { fontOf, measureFace, printable, runsOf, type Face, type Weight } from './invoice-documents.fonts.ts';

export type Pdf = InstanceType<typeof PDFDocument>;

export interface Style {
  size: number;
  bold?: boolean;
}

type Options = PDFKit.Mixins.TextOptions;

function use(doc: Pdf, face: Face, style: Style): void {
  const weight: Weight = style.bold ? 'bold' : 'regular';
  // The family name is pdfkit's cache key: each face and weight is embedded once per document.
  doc.font(fontOf(face, weight) as never, `${face}-${weight}`).fontSize(style.size);
}

/**
 * Draws a text at (x, y) in runs, each in the face that has its glyphs; pdfkit's `continued` keeps the
 * runs one paragraph, so wrapping and alignment work across them.
 */
export function write(
  doc: Pdf,
  text: string | null | undefined,
  x: number,
  y: number,
  style: Style,
  options: Options = {},
): void {
  const runs = runsOf(text ?? '');
  runs.forEach((run, n) => {
    use(doc, run.face, style);
    const more = { ...options, continued: n < runs.length - 1 };
    if (n === 0) doc.text(run.text, x, y, more);
    else doc.text(run.text, more);
  });
}

/** The height a text takes, measured in the widest face it uses (so a mixed line never overflows). */
export function heightOf(doc: Pdf, text: string | null | undefined, style: Style, options: Options = {}): number {
  const runs = runsOf(text ?? '');
  if (runs.length === 0) return 0;
  use(doc, measureFace(runs), style);
  return doc.heightOfString(printable(text), options);
}
