import { defineModule } from '../../platform/modules.ts';
import mcpRoutes from './mcp.routes.ts';

export type { Send } from './mcp.server.ts';
/** The MCP server with its SDK, loaded when a process serves MCP (not by every server start). */
export const loadMcpServer = () => import('./mcp.server.ts');
export { toolsFor, toolsOf, type ApiTool, type OpenApiDocument } from './mcp.tools.ts';

// The assistant tool surface (docs/decisions/0036): its writes are the tool calls' own, audited as theirs.
export default defineModule({
  name: 'mcp',
  tables: [],
  entity: 'mcp',
  routes: mcpRoutes,
});
