// The legacy v1.0 engine is not a v3 module: app.ts mounts it under /api/v1.0 beside v3, like the operator API.
export { legacyRoutes } from './legacy-webhooks.routes.ts';
// What a web-origin write fires (installed by loadModules; docs/decisions/0054).
export { recordLegacyEvents } from './legacy-webhooks.events.ts';
