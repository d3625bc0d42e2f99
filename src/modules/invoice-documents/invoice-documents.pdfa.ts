import type { Pdf } from './invoice-documents.pdf-text.ts';

/** A file carried inside a PDF/A-3 (e.g. Factur-X's CII), and how it relates to the document. */
export interface PdfAttachment {
  name: string;
  data: Buffer;
  mime: string;
  relationship: 'Data' | 'Alternative' | 'Source' | 'Supplement' | 'Unspecified';
  description?: string;
}

export interface PdfOptions {
  /** PDF/A-3b: sRGB output intent, XMP with pdfaid, the given files attached, extra XMP descriptions appended. */
  pdfa3?: { attachments: PdfAttachment[]; xmp?: string };
}

export function pdfaSettings(options: PdfOptions): object {
  return options.pdfa3 ? { subset: 'PDF/A-3b', pdfVersion: '1.7', displayTitle: true } : {};
}

export function attach(doc: Pdf, options: PdfOptions): void {
  if (!options.pdfa3) return;
  for (const file of options.pdfa3.attachments)
    doc.file(file.data, {
      name: file.name,
      type: file.mime,
      relationship: file.relationship,
      description: file.description,
    } as PDFKit.Mixins.PDFAttachmentOptions);
  if (options.pdfa3.xmp) doc.appendXML(options.pdfa3.xmp);
}
