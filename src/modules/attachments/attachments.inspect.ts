import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, fail } from '../../platform/errors.ts';
import { MAX_FILE_BYTES, type Format } from './attachments.rules.ts';

/** Enough for file-type's signatures (it reads at most 4100 bytes) and for the text formats' opening checks. */
const HEAD_BYTES = 16 * 1024;
/** JSON up to this size is parsed whole; a larger one only has to open and close like an object or array. */
const JSON_PARSE_BYTES = 1024 * 1024;

export interface Inspection {
  size: number;
  sha256: string;
  head: Buffer;
  nul: boolean;
  utf8: boolean;
  /** First and last non-whitespace characters of the decoded text (text formats only). */
  first: string;
  last: string;
  /** The whole text, kept only for JSON of at most JSON_PARSE_BYTES. */
  text: string | undefined;
}

/**
 * A pass-through stream that sees every byte once on its way to storage: size (refusing past the limit, so a
 * too-large upload stops there), SHA-256, the first bytes, and the text rules, without holding the file.
 */
export class Inspector extends Transform {
  private readonly hash = createHash('sha256');
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private readonly heads: Buffer[] = [];
  private headLength = 0;
  private readonly state = { size: 0, nul: false, utf8: true, first: '', last: '' };
  private json: string[] | undefined;
  private readonly isText: boolean;

  constructor(format: Format) {
    super();
    this.isText = 'text' in format.check;
    this.json = 'text' in format.check && format.check.text === 'json' ? [] : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.state.size += chunk.length;
    if (this.state.size > MAX_FILE_BYTES) {
      callback(new AppError('FILE_TOO_LARGE', 'The file is larger than 150 MB', { max_bytes: MAX_FILE_BYTES }));
      return;
    }
    this.hash.update(chunk);
    if (this.headLength < HEAD_BYTES) {
      const piece = chunk.subarray(0, HEAD_BYTES - this.headLength);
      this.heads.push(piece);
      this.headLength += piece.length;
    }
    if (this.isText) this.readText(chunk, true);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.isText) this.readText(Buffer.alloc(0), false);
    callback();
  }

  private readText(chunk: Buffer, more: boolean): void {
    if (chunk.includes(0)) this.state.nul = true;
    if (!this.state.utf8) return;
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: more });
    } catch {
      this.state.utf8 = false;
      this.json = undefined;
      return;
    }
    const trimmed = text.trim();
    if (trimmed) {
      if (!this.state.first) this.state.first = trimmed[0]!;
      this.state.last = trimmed[trimmed.length - 1]!;
    }
    if (this.json && this.state.size <= JSON_PARSE_BYTES) this.json.push(text);
    else this.json = undefined;
  }

  result(): Inspection {
    return {
      ...this.state,
      sha256: this.hash.digest('hex'),
      head: Buffer.concat(this.heads),
      text: this.json?.join(''),
    };
  }
}

const mismatch = (format: Format, why: string): never =>
  fail('MIME_MISMATCH', `The file's bytes are not ${format.mime}: ${why}`, { content_type: format.mime });

/** An email's first line is a header field ("Received: ...", "From: ..."). */
const HEADER_LINE = /^[\x21-\x39\x3b-\x7e]+:[ \t]/;

/** The documented text rules: valid UTF-8 without NUL, and per format how the content must open (and parse). */
function checkText(format: Format, kind: string, found: Inspection): void {
  if (found.nul) mismatch(format, 'text must not contain NUL bytes');
  if (kind === 'eml') {
    if (!HEADER_LINE.test(found.head.toString('latin1'))) mismatch(format, 'an email starts with a header line');
    return;
  }
  if (!found.utf8) mismatch(format, 'text must be valid UTF-8');
  if (kind === 'json') {
    if (found.text !== undefined) {
      try {
        JSON.parse(found.text);
      } catch {
        mismatch(format, 'the JSON does not parse');
      }
    } else if (!((found.first === '{' && found.last === '}') || (found.first === '[' && found.last === ']')))
      mismatch(format, 'a large JSON file must be one object or array');
  }
  if ((kind === 'xml' || kind === 'svg') && found.first !== '<') mismatch(format, 'XML starts with <');
  if (kind === 'svg' && !found.head.toString('utf8').includes('<svg')) mismatch(format, 'no <svg> element');
}

/** What the bytes are, against what the name and declared type said (415 MIME_MISMATCH), and 400 for no bytes. */
export async function checkContent(format: Format, found: Inspection): Promise<void> {
  if (found.size === 0) fail('VALIDATION_ERROR', 'The file is empty', { field: 'file', reason: 'EMPTY_FILE' });
  const detected = (await fileTypeFromBuffer(found.head))?.mime as string | undefined;
  if ('magic' in format.check) {
    if (!detected || !format.check.magic.includes(detected))
      mismatch(format, detected ? `they are ${detected}` : 'no known signature');
    return;
  }
  const xmlLike = format.check.text === 'xml' || format.check.text === 'svg';
  if (detected && !(xmlLike && detected === 'application/xml')) mismatch(format, `they are ${detected}`);
  checkText(format, format.check.text, found);
}
