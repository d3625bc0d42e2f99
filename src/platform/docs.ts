import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { V3_PREFIX } from './http.ts';
import { renderLlms } from './llms.ts';
import { declareHeaders, HEADER_COMPONENTS, type HeaderMeta, type Resolve } from './openapi-headers.ts';

const require = createRequire(import.meta.url);
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const LOCAL_LOGO = `${V3_PREFIX}/redoc/logo.svg`;
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" rx="3" fill="#32329f"/></svg>';

type RouteMeta = HeaderMeta;

type Operation = Record<string, unknown>;
type Document = { paths?: Record<string, Record<string, Operation>>; [key: string]: unknown };

const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content' };

/** Success responses without a description of their own get the status text instead of "Default Response". */
function describeSuccess(operation: Operation): void {
  const responses = (operation.responses ?? {}) as Record<string, { description?: string }>;
  for (const [status, response] of Object.entries(responses)) {
    if (response.description === 'Default Response' && SUCCESS[status]) response.description = SUCCESS[status];
  }
}

/** Either credential: an API key, or a web session's cookie (whose writes also carry X-CSRF-Token). */
const CREDENTIALS = [
  { company: [], apiKey: [] },
  { company: [], session: [] },
];

function resolverOf(document: Document): Resolve {
  const schemas = ((document.components as { schemas?: Record<string, object> } | undefined)?.schemas ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  return (schema) => {
    const target = schema?.$ref;
    return typeof target === 'string' ? schemas[target.replace('#/components/schemas/', '')] : schema;
  };
}

/** Adds what the platform enforces (scope tier, preview flag, security, response headers) to each operation. */
function annotate(document: Document, routes: Map<string, RouteMeta>): Document {
  const resolve = resolverOf(document);
  document.components = { ...(document.components as object), headers: HEADER_COMPONENTS };
  for (const [url, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      describeSuccess(operation);
      const route = routes.get(`${method.toUpperCase()} ${V3_PREFIX}${url.replace(/\{(\w+)\}/g, ':$1')}`);
      // Routes outside route() (GET /health) carry their tier in the schema itself.
      const meta: RouteMeta = route?.tier ? route : { tier: operation['x-scope'] as string | undefined };
      if (!meta.tier) continue;
      operation['x-scope'] = meta.tier;
      operation['x-preview'] = meta.preview ?? false;
      // An open route may still name its own credential (the signed-in session routes declare the session).
      const open = meta.tier === 'none' || meta.tier === 'operator';
      operation.security = open ? ((operation.security as unknown[] | undefined) ?? []) : CREDENTIALS;
      declareHeaders((operation.responses ?? {}) as Parameters<typeof declareHeaders>[0], meta, resolve);
    }
  }
  return document;
}

async function redocBundle(): Promise<string> {
  const file = path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
  // The bundle links its logo from a CDN; the reference must work offline, so it points at our copy.
  return (await readFile(file, 'utf8')).replaceAll(REDOC_CDN_LOGO, LOCAL_LOGO);
}

const redocPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>API v3 reference</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="${V3_PREFIX}/openapi.json"></redoc><script src="${V3_PREFIX}/redoc/redoc.standalone.js" charset="utf-8"></script></body></html>`;

export async function registerDocs(app: FastifyInstance): Promise<void> {
  // The app's route table (src/app.ts) already records every route with its declared access rules.
  const routes = () => new Map(app.routeTable.map((r) => [`${r.method} ${r.url}`, r.config as RouteMeta]));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'API v3',
        version: '3.0.0',
        description: 'Multi-tenant work and billing API for service companies. Every path is relative to /api/v3.',
      },
      servers: [{ url: V3_PREFIX }],
      components: {
        securitySchemes: {
          company: { type: 'apiKey', in: 'header', name: 'X-Service-Company', description: 'Company (tenant) UUID' },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'Secret key beginning with svc_live_',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'svc_session',
            description:
              'A member signed in to the web application (POST /auth/sessions sets it; __Host-svc_session over HTTPS). Writes also send X-CSRF-Token: the csrf_token of the session.',
          },
        },
      },
    },
    hideUntagged: true,
    transform: ({ schema, url }) => ({
      schema: url.startsWith(V3_PREFIX) ? schema : { ...schema, hide: true },
      url: url.startsWith(V3_PREFIX) ? url.slice(V3_PREFIX.length) || '/' : url,
    }),
    transformObject: (doc) =>
      annotate(('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject) as Document, routes()),
  });
  await app.register(swaggerUi, {
    routePrefix: `${V3_PREFIX}/docs`,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });

  let bundle: string | undefined;
  let llms: { short: string; full: string } | undefined;
  const document = () => app.swagger() as unknown as Document;
  app.get(`${V3_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => document());
  app.get(`${V3_PREFIX}/redoc`, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(redocPage),
  );
  app.get(`${V3_PREFIX}/redoc/redoc.standalone.js`, { schema: { hide: true } }, async (_req, reply) => {
    bundle ??= await redocBundle();
    return reply
      .type('application/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(bundle);
  });
  app.get(LOCAL_LOGO, { schema: { hide: true } }, async (_req, reply) => reply.type('image/svg+xml').send(LOGO_SVG));
  const llmsText = () => (llms ??= renderLlms(document()));
  app.get(`${V3_PREFIX}/llms.txt`, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').send(llmsText().short),
  );
  app.get(`${V3_PREFIX}/llms-full.txt`, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').send(llmsText().full),
  );
  for (const name of ['docs', 'redoc', 'llms.txt', 'llms-full.txt', 'openapi.json']) {
    app.get(`/${name}`, { schema: { hide: true } }, async (_req, reply) => reply.redirect(`${V3_PREFIX}/${name}`));
  }
}
