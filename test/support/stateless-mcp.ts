/** Serving one HTTP request with an MCP server made for it: the fixtures' protected resources. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';

/** Answers `req` with `server` (no session, a JSON response); both are closed when `res` closes. */
export async function serveStatelessRequest(
  server: McpServer,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}
