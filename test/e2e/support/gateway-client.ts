// An agent's view of the editor's gateway: the discovery file under $MCP_HOST_HOME/gateway gives
// the URL and token, and an SDK client asks what any agent would see.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Connects to the gateway whose discovery file is in `home`/gateway, runs `fn`, ends the session. */
export async function withGatewayClient<T>(home: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const dir = join(home, 'gateway');
  const file = readdirSync(dir).find((f) => /^\d+\.json$/.test(f));
  if (!file) throw new Error(`no gateway discovery file in ${dir}`);
  const { url, token } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { url: string; token: string };
  const client = new Client({ name: 'e2e-gateway-check', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  try {
    return await fn(client);
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}
