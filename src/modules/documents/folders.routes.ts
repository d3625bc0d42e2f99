import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { localDrive } from './drive.ts';
import { provisionDocumentsFolder } from './drive.service.ts';
import {
  DriveFolder,
  Folder,
  FolderCreate,
  FolderListQuery,
  FolderTemplate,
  FolderTemplateAssign,
  FolderTemplateCreate,
  FolderTemplateListQuery,
  FolderTree,
  FOLDER_FILTERS,
  FOLDER_TEMPLATE_FILTERS,
  type FolderTemplateCreateBody,
} from './folders.schemas.ts';
import * as service from './folders.service.ts';

const preview = true;
const ClientParams = IdParam('client_id');

async function templateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Folder templates'];
  app.route({
    ...route('GET', '/folder-templates', {
      operationId: 'listFolderTemplates',
      summary: 'List folder templates',
      tags,
      tier: 'write',
      preview,
      filters: FOLDER_TEMPLATE_FILTERS,
      schema: { querystring: FolderTemplateListQuery, response: { 200: OffsetOrCursorList(FolderTemplate) } },
    }),
    handler: async (request) => service.listFolderTemplates(request.ctx, request.query),
  });
  app.route({
    ...route('POST', '/folder-templates', {
      idempotent: true,
      operationId: 'createFolderTemplate',
      entity: 'folder_template',
      summary: 'Create a folder template (a named tree of folder names)',
      tags,
      tier: 'write',
      preview,
      companyConfig: true,
      schema: { body: FolderTemplateCreate, response: { 201: Single(FolderTemplate) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.createFolderTemplate(request.ctx, request.body as FolderTemplateCreateBody), 201),
  });
  app.route({
    ...route('GET', '/folder-templates/:folder_template_id', {
      operationId: 'getFolderTemplate',
      summary: 'Get a folder template',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('folder_template_id'), response: { 200: Single(FolderTemplate) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getFolderTemplate(request.ctx, request.params.folder_template_id)),
  });
}

async function folderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Folders'];
  app.route({
    ...route('GET', '/folders', {
      operationId: 'listFolders',
      summary: "List clients' folders",
      tags,
      tier: 'write',
      preview,
      filters: FOLDER_FILTERS,
      schema: { querystring: FolderListQuery, response: { 200: OffsetOrCursorList(Folder) } },
    }),
    handler: async (request) => service.listFolders(request.ctx, request.query),
  });
  app.route({
    ...route('POST', '/folders', {
      idempotent: true,
      operationId: 'createFolder',
      entity: 'folder',
      summary: "Create a folder in a client's folder tree",
      tags,
      tier: 'write',
      preview,
      errors: ['INVALID_CLIENT', 'INVALID_PARENT'],
      schema: { body: FolderCreate, response: { 201: Single(Folder) } },
    }),
    handler: async (request, reply) => single(reply, await service.createFolder(request.ctx, request.body), 201),
  });
  app.route({
    ...route('GET', '/folders/:folder_id', {
      operationId: 'getFolder',
      summary: 'Get a folder',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('folder_id'), response: { 200: Single(Folder) } },
    }),
    handler: async (request, reply) => single(reply, await service.getFolder(request.ctx, request.params.folder_id)),
  });
}

async function clientFolderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Clients'];
  app.route({
    ...route('PUT', '/clients/:client_id/folder-template', {
      operationId: 'setClientFolderTemplate',
      entity: 'client',
      summary: "Set the client's folder template and add its folders to the client's tree",
      tags: ['Folders'],
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: ClientParams, body: FolderTemplateAssign, response: { 200: Single(FolderTree) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.setFolderTemplate(request.ctx, request.params.client_id, request.body)),
  });
  app.route({
    ...route('GET', '/clients/:client_id/folder-tree', {
      operationId: 'getClientFolderTree',
      summary: "Get the client's folder tree",
      tags: ['Folders'],
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: ClientParams, response: { 200: Single(FolderTree) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getFolderTree(request.ctx, request.params.client_id)),
  });
  // The drive lives under the service's data directory (config.dataDir); the local provider is the only one.
  const drive = (companyId: string) => localDrive(fastify.config.dataDir, companyId);
  app.route({
    ...route('POST', '/clients/:client_id/documents-folder', {
      idempotent: true,
      operationId: 'provisionClientDocumentsFolder',
      entity: 'client',
      summary: "Create the client's folder tree in the company's drive",
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'DRIVE_NOT_CONNECTED', 'FOLDER_PROVISION_FAILED'],
      schema: { params: ClientParams, response: { 201: Single(DriveFolder) } },
    }),
    handler: async (request, reply) =>
      single(reply, await provisionDocumentsFolder(request.ctx, request.params.client_id, drive), 201),
  });
}

export default async function folderModuleRoutes(fastify: FastifyInstance) {
  await templateRoutes(fastify);
  await folderRoutes(fastify);
  await clientFolderRoutes(fastify);
}
