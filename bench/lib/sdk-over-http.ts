/**
 * "Straight to the server" for the HTTP gateway: the tiny server (fixtures/tiny-server.mjs --http)
 * in its own process, served over the SDK's Streamable HTTP server transport on a plain node:http
 * server, and an SDK client like the agent's. The gateway's side has one other process too (the
 * stdio server behind it), so both pay the same process switches and the ratio is the gateway's hop.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { TINY_SERVER } from './rawsdk.js';

export interface SdkOverHttp {
  echo(text: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function sdkOverHttp(): Promise<SdkOverHttp> {
  const child = spawn(process.execPath, [TINY_SERVER, '--http'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^PORT (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    void exited.then(() => reject(new Error('the tiny HTTP server exited before it listened')));
  });
  lines.close();
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    echo: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    close: async () => {
      await client.close();
      child.stdin.end();
      await exited;
    },
  };
}
