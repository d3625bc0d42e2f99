import { Type, type Static } from 'typebox';
import { Timestamp } from '../../platform/fields.ts';

export const DOCUMENT_FORMATS = ['pdf', 'ubl', 'cii', 'xrechnung', 'facturx'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

export const DocumentQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union(
        DOCUMENT_FORMATS.map((f) => Type.Literal(f)),
        {
          description:
            'pdf (default): the invoice to send a person; ubl: EN 16931 UBL 2.1 Invoice XML, Peppol BIS Billing 3.0 ' +
            'when seller and client both have an electronic address (endpoint_id); cii: EN 16931 UN/CEFACT Cross ' +
            'Industry Invoice XML; xrechnung: UBL under the ' +
            'XRechnung 3.0 CIUS (German public and B2B buyers); facturx: Factur-X/ZUGFeRD, the PDF as PDF/A-3 with ' +
            'the CII embedded as factur-x.xml (profile EN 16931)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const Links = Type.Object({
  pdf: Type.String({ description: 'GET this path for the PDF' }),
  ubl: Type.String({ description: 'GET this path for the EN 16931 UBL 2.1 XML (Peppol BIS 3 with both addresses)' }),
  cii: Type.String({ description: 'GET this path for the EN 16931 UN/CEFACT CII XML' }),
  xrechnung: Type.String({ description: 'GET this path for the XRechnung 3.0 UBL (422 naming what it lacks)' }),
  facturx: Type.String({ description: 'GET this path for the Factur-X / ZUGFeRD PDF/A-3b with the CII inside' }),
});

export const ExportResult = Type.Object(
  {
    invoice_id: Type.Integer(),
    exported_at: Timestamp('When the invoice was (last) exported'),
    updated_at: Timestamp("The invoice's new version (its ETag); If-Match of a later write carries it"),
    documents: Links,
  },
  { title: 'InvoiceExport' },
);
export type ExportResult = Static<typeof ExportResult>;

export const SendResult = Type.Object(
  {
    job_id: Type.Integer({ description: 'The invoice_send job; follow it at GET /jobs/{job_id}' }),
    invoice_id: Type.Integer(),
    status: Type.Literal('queued'),
    job_url: Type.String({ description: 'Path of the job' }),
  },
  { title: 'InvoiceSendAccepted' },
);
export type SendResult = Static<typeof SendResult>;

/** The document's response: binary PDF or XML text, by format. */
export const DocumentResponse = {
  description: 'The document as a download (Content-Disposition: attachment)',
  content: {
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
    'application/xml; charset=utf-8': { schema: { type: 'string' } },
  },
};
