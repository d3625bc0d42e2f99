import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { storageFor } from '../../platform/storage/index.ts';
import { openDownload, sendDownload } from './attachments.download.ts';
import {
  Attachment,
  ATTACHMENT_FILTERS,
  AttachmentListQuery,
  FileBody,
  UploadForm,
  type RelatedType,
} from './attachments.schemas.ts';
import * as service from './attachments.service.ts';
import { MULTIPART_LIMITS, receiveFile, type ReceivedFile } from './attachments.upload.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The file an upload route received (stored already), for its handler. */
    upload?: ReceivedFile;
  }
}

const tags = ['Attachments'];
const Params = IdParam('attachment_id');
const UPLOAD_ERRORS = [
  'INVALID_PARENT',
  'FILE_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNSUPPORTED_MIME',
  'UNSUPPORTED_EXTENSION',
  'BLOCKED_EXTENSION',
  'MIME_MISMATCH',
] as const;
const ID = /^[1-9]\d{0,9}$/;

/**
 * Runs before validation and before the request's transaction opens: the parent is checked before a byte is
 * read, then the file is streamed to storage without holding a database connection. Validation then sees a
 * summary of the file (hash and name), which is also what the idempotency check compares. A refusal that
 * leaves the body unread closes the connection, so the rest of an oversized or refused upload is never read.
 */
function receive(type: RelatedType, param: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = (request.params as Record<string, string>)[param] ?? '';
    if (!ID.test(raw) || Number(raw) > 2147483647) return; // the params schema answers
    try {
      await service.assertParent(request.ctx, type, Number(raw));
      const file = await receiveFile(request, storageFor(request.server.config));
      request.upload = file;
      request.body = { file: `${file.sha256} ${file.name}` };
    } catch (error) {
      if (!request.raw.readableEnded) reply.header('Connection', 'close');
      throw error;
    }
  };
}

function uploadRoute(app: FastifyInstance, type: RelatedType, resource: string, param: string) {
  const label = type === 'task' ? 'Task' : 'Note';
  app.route({
    ...route('POST', `/${resource}/:${param}/attachments`, {
      idempotent: true,
      operationId: `upload${label}Attachment`,
      summary: `Upload a file to a ${type} (multipart/form-data, field file)`,
      description:
        'At most 150 MB; images, PDF, office documents, text, JSON, XML, ZIP and EML, checked by their bytes. ' +
        'The attachment is `processing` until its stored bytes are verified; download answers 409 until then.',
      tags,
      tier: 'write:attachments',
      errors: UPLOAD_ERRORS,
      schema: {
        params: IdParam(param),
        consumes: ['multipart/form-data'],
        body: UploadForm,
        response: { 201: Single(Attachment) },
      },
    }),
    preValidation: receive(type, param),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const id = Number((request.params as Record<string, number>)[param]);
      const record = await service.createAttachment(request.ctx, { type, id }, request.upload!, app.config);
      return single(reply, record, 201);
    },
  });
}

export default async function attachmentRoutes(fastify: FastifyInstance) {
  // Scoped to these routes: other modules keep refusing multipart bodies.
  await fastify.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  uploadRoute(app, 'task', 'tasks', 'task_id');
  uploadRoute(app, 'note', 'notes', 'note_id');

  app.route({
    ...route('GET', '/attachments', {
      operationId: 'listAttachments',
      summary: 'List attachments',
      tags,
      tier: 'read',
      filters: ATTACHMENT_FILTERS,
      schema: { querystring: AttachmentListQuery, response: { 200: OffsetOrCursorList(Attachment) } },
    }),
    handler: async (request) => service.listAttachments(request.ctx, request.query),
  });

  app.route({
    ...route('GET', '/attachments/:attachment_id', {
      operationId: 'getAttachment',
      summary: "Get an attachment's metadata",
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Attachment) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getAttachment(request.ctx, request.params.attachment_id)),
  });

  app.route({
    ...route('GET', '/attachments/:attachment_id/download', {
      operationId: 'downloadAttachment',
      summary: 'Download the file (streamed; one Range supported)',
      description:
        'Always served as a download (Content-Disposition: attachment, X-Content-Type-Options: nosniff). ' +
        'Range: bytes=a-b, a- or -n gives 206; a range past the end gives 416; several ranges get the whole file.',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND', 'ATTACHMENT_PROCESSING', 'RANGE_NOT_SATISFIABLE'],
      schema: {
        params: Params,
        response: { 200: FileBody('The whole file'), 206: FileBody('The requested range') },
      },
    }),
    // A HEAD would open the stored file only to throw it away.
    exposeHeadRoute: false,
    handler: async (request, reply) =>
      sendDownload(
        reply,
        await openDownload(request.ctx, request.params.attachment_id, request.headers.range, app.config),
      ),
  });

  app.route({
    ...route('DELETE', '/attachments/:attachment_id', {
      operationId: 'deleteAttachment',
      summary: 'Delete an attachment (soft delete)',
      tags,
      tier: 'write:attachments',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteAttachment(request.ctx, request.params.attachment_id);
      return noContent(reply);
    },
  });
}
