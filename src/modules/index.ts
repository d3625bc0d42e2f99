import type { FastifyPluginAsync } from 'fastify';
import clientRoutes from './clients/clients.routes.ts';
import contactRoutes from './contacts/contacts.routes.ts';

/** Every v3 resource module; app.ts mounts them under /api/v3. */
export const v3Modules: FastifyPluginAsync[] = [clientRoutes, contactRoutes];
