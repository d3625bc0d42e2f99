export { operatorRoutes } from './operator.routes.ts';
