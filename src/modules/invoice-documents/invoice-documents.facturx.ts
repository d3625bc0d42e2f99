import { renderCii } from './invoice-documents.cii.ts';
import type { InvoiceDocument } from './invoice-documents.model.ts';
import { renderPdf } from './invoice-documents.pdf.ts';

/**
 * Factur-X 1.0 / ZUGFeRD 2 (decision 0063): the invoice's PDF as PDF/A-3b with its EN 16931 CII embedded as
 * factur-x.xml (AFRelationship Alternative: the XML is the same invoice in another form), and the XMP that
 * declares it, with the extension schema PDF/A requires for the fx: properties. Profile EN 16931 ("Comfort").
 */
const FX = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const property = (name: string, description: string) =>
  `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name>` +
  '<pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category>' +
  `<pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;

export const FACTURX_XMP =
  `<rdf:Description xmlns:fx="${FX}" rdf:about=""><fx:DocumentType>INVOICE</fx:DocumentType>` +
  '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName><fx:Version>1.0</fx:Version>' +
  '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel></rdf:Description>' +
  '<rdf:Description xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" ' +
  'xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#" ' +
  'rdf:about=""><pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">' +
  '<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>' +
  `<pdfaSchema:namespaceURI>${FX}</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix>` +
  '<pdfaSchema:property><rdf:Seq>' +
  property('DocumentFileName', 'The name of the embedded XML document') +
  property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER') +
  property('Version', 'The actual version of the standard applying to the embedded XML document') +
  property('ConformanceLevel', 'The conformance level of the embedded XML document') +
  '</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>';

/** The Factur-X PDF, or 422 EINVOICE_DATA_MISSING (from the CII) before any PDF is drawn. */
export async function renderFacturX(model: InvoiceDocument): Promise<Buffer> {
  const cii = Buffer.from(renderCii(model), 'utf8');
  return renderPdf(model, {
    pdfa3: {
      attachments: [
        {
          name: 'factur-x.xml',
          data: cii,
          mime: 'text/xml',
          relationship: 'Alternative',
          description: 'Factur-X invoice, EN 16931',
        },
      ],
      xmp: FACTURX_XMP,
    },
  });
}
