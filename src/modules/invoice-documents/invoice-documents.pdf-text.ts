import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';
import { fontOf, runsOf, type Face, type Weight } from './invoice-documents.fonts.ts';

export type Pdf = InstanceType<typeof PDFDocument>;

export interface Style {
  size: number;
  bold?: boolean;
}

export interface Options {
  width?: number;
  align?: 'left' | 'right' | 'center';
  /** false: one line, never wrapped. */
  lineBreak?: boolean;
}

/** A stretch of text in one face, with its width at the style's size. */
interface Piece {
  face: Face;
  text: string;
  width: number;
}

/** What lies between two break opportunities; `trail` is the width of its trailing spaces. */
interface Segment {
  pieces: Piece[];
  width: number;
  trail: number;
  required: boolean;
}

interface Line {
  pieces: Piece[];
  width: number;
  trail: number;
}

// The Unicode line-breaking rules (UAX #14) that pdfkit wraps by, from the same maintained package.
type Breaker = { nextBreak(): { position: number; required: boolean } | null };
const LineBreaker = createRequire(import.meta.url)('linebreak') as new (text: string) => Breaker;

function use(doc: Pdf, face: Face, style: Style): void {
  const weight: Weight = style.bold ? 'bold' : 'regular';
  // The family name is pdfkit's cache key: each face and weight is embedded once per document.
  doc.font(fontOf(face, weight) as never, `${face}-${weight}`).fontSize(style.size);
}

function piece(doc: Pdf, face: Face, text: string, style: Style): Piece {
  use(doc, face, style);
  return { face, text, width: doc.widthOfString(text) };
}

/** The text between break opportunities, each cut where the face changes (runs come from the whole text). */
function segments(doc: Pdf, text: string, style: Style): Segment[] {
  const runs = runsOf(text);
  const whole = runs.map((run) => run.text).join('');
  const faces: Face[] = [];
  for (const run of runs) for (let n = 0; n < run.text.length; n++) faces.push(run.face);
  const out: Segment[] = [];
  const breaker = new LineBreaker(whole);
  let start = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const pieces: Piece[] = [];
    for (let from = start; from < bk.position;) {
      let to = from + 1;
      while (to < bk.position && faces[to] === faces[from]) to++;
      const chunk = whole.slice(from, to).replace(/\n/g, '');
      if (chunk) pieces.push(piece(doc, faces[from]!, chunk, style));
      from = to;
    }
    const trailing = /[ \t]+$/.exec(pieces.at(-1)?.text ?? '')?.[0] ?? '';
    const trail = trailing ? piece(doc, pieces.at(-1)!.face, trailing, style).width : 0;
    out.push({ pieces, width: pieces.reduce((sum, p) => sum + p.width, 0), trail, required: bk.required });
    start = bk.position;
  }
  return out;
}

/** A segment wider than the line, cut into characters (as pdfkit does), so it fills lines one by one. */
function characters(doc: Pdf, segment: Segment, style: Style): Segment[] {
  const chars = segment.pieces.flatMap((p) => [...p.text].map((char) => piece(doc, p.face, char, style)));
  return chars.map((p, n) => {
    const last = n === chars.length - 1;
    return { pieces: [p], width: p.width, trail: last ? segment.trail : 0, required: last && segment.required };
  });
}

/** Greedy filling, as pdfkit's own wrapper: a segment goes on the line when it fits without its spaces. */
function lines(doc: Pdf, text: string, style: Style, options: Options): Line[] {
  const max = options.lineBreak === false ? Infinity : (options.width ?? Infinity);
  const out: Line[] = [];
  let line: Line = { pieces: [], width: 0, trail: 0 };
  const place = (segment: Segment) => {
    if (line.pieces.length > 0 && line.width + segment.width - segment.trail > max) {
      out.push(line);
      line = { pieces: [], width: 0, trail: 0 };
    }
    for (const p of segment.pieces) {
      // Neighbours in one face are drawn as one piece: a text operation per word made PDFs 40% larger and slower.
      const last = line.pieces.at(-1);
      if (last?.face === p.face)
        line.pieces[line.pieces.length - 1] = { ...last, text: last.text + p.text, width: last.width + p.width };
      else line.pieces.push(p);
    }
    line.width += segment.width;
    line.trail = segment.trail;
    if (segment.required && options.lineBreak !== false) {
      out.push(line);
      line = { pieces: [], width: 0, trail: 0 };
    }
  };
  for (const segment of segments(doc, text, style))
    if (segment.width - segment.trail > max) characters(doc, segment, style).forEach(place);
    else place(segment);
  if (line.pieces.length > 0) out.push(line);
  return out;
}

/** The line height and baseline of the Latin face: every line is spaced and aligned by them, whatever its faces. */
function metrics(doc: Pdf, style: Style): { height: number; ascent: number } {
  use(doc, 'latin', style);
  return { height: doc.currentLineHeight(true), ascent: (fontOf('latin', 'regular').ascent / 1000) * style.size };
}

/**
 * The text as drawn, when it is all in the Latin face (most cells: figures, labels, Latin names), else
 * undefined. pdfkit lays such text out itself, exactly as our layout would (one face, one baseline), at about
 * a fifth of the cost: our layout measures every piece between break opportunities.
 */
function latinText(text: string | null | undefined): string | undefined {
  const runs = runsOf(text ?? '');
  return runs.every((run) => run.face === 'latin') ? runs.map((run) => run.text).join('') : undefined;
}

/**
 * Draws a text in the box at (x, y), wrapped to `width` and aligned, each run in the face that has its glyphs.
 * The lines are laid out here, not by pdfkit, because pdfkit aligns each run of a line on its own (a right-
 * aligned line of two faces would overlap) and sets each face on its own ascender (CJK would sit high).
 */
export function write(
  doc: Pdf,
  text: string | null | undefined,
  x: number,
  y: number,
  style: Style,
  options: Options = {},
): void {
  const latin = latinText(text);
  if (latin !== undefined) {
    if (!latin) return;
    use(doc, 'latin', style);
    doc.text(latin, x, y, { ...options });
    return;
  }
  const { height, ascent } = metrics(doc, style);
  const width = options.width ?? 0;
  lines(doc, text ?? '', style, options).forEach((line, n) => {
    const used = line.width - line.trail;
    let left = x + (options.align === 'right' ? width - used : options.align === 'center' ? (width - used) / 2 : 0);
    for (const p of line.pieces) {
      use(doc, p.face, style);
      doc.text(p.text, left, y + n * height + ascent, { lineBreak: false, baseline: 'alphabetic' });
      left += p.width;
    }
  });
}

/** The height a text takes in a box of the given width: its lines at the Latin face's line height. */
export function heightOf(doc: Pdf, text: string | null | undefined, style: Style, options: Options = {}): number {
  const latin = latinText(text);
  if (latin !== undefined) {
    if (!latin) return 0;
    use(doc, 'latin', style);
    return doc.heightOfString(latin, { ...options });
  }
  return lines(doc, text ?? '', style, options).length * metrics(doc, style).height;
}
