/** Baselines: the bare SDK, with none of the host around it. */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const TINY_SERVER = join(__dirname, '../fixtures/tiny-server.mjs');
/** A server with no MCP library, answering from canned lines (fixtures/canned-server.mjs). */
export const CANNED_SERVER = join(__dirname, '../fixtures/canned-server.mjs');

/**
 * What the bench's quiet host declares (no sampling, elicitation or roots port): the 2025-11-25
 * tasks capability and the 2026-07-28 tasks extension. On 2026-07-28 the host sends the extension
 * alone in every request's `_meta` (HostClient), so a bare client declaring this sends the same.
 */
export function hostLikeCapabilities(modern: boolean): ClientCapabilities {
  const extensions = { 'io.modelcontextprotocol/tasks': {} };
  return modern
    ? { extensions }
    : { tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } }, extensions };
}

/** util-linux's setsid(1): runs a command in a session of its own (it execs, no extra process). */
const SETSID = ['/usr/bin/setsid', '/bin/setsid'].find((p) => process.platform === 'linux' && existsSync(p));

/**
 * `modern`: negotiate the era (2026-07-28 with the tiny server), as the host does; else 2025-11-25 only.
 * `ownSession`: the server in a session of its own, as the host starts every stdio server (so it can
 * stop the whole tree). On Linux a session is also a scheduling group (autogroup), and on a loaded
 * machine which group the server is in moves a stdio round trip more than the client's own work
 * does (bench/README.md, "stdio floor"); where setsid(1) is missing the server stays in ours.
 */
export async function rawConnect(
  env: Record<string, string> = {},
  modern = false,
  ownSession = false,
  capabilities?: ClientCapabilities,
  script = TINY_SERVER,
): Promise<Client> {
  const launch = ownSession && SETSID ? { command: SETSID, args: [process.execPath, script] } : undefined;
  const client = new Client(
    { name: 'bench-baseline', version: '1.0.0' },
    { ...(modern ? { versionNegotiation: { mode: 'auto' } } : {}), ...(capabilities ? { capabilities } : {}) },
  );
  await client.connect(
    new StdioClientTransport({
      command: launch?.command ?? process.execPath,
      args: launch?.args ?? [script],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

/** The tiny server over Streamable HTTP (both eras, the SDK's default posture), in its own process. */
export async function startTinyHttp(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [TINY_SERVER], {
    env: { ...process.env, HTTP: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /PORT (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the tiny HTTP server exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
}

/** A bare SDK client over Streamable HTTP; `modern` and `capabilities` as in rawConnect. */
export async function rawConnectHttp(url: string, modern = false, capabilities?: ClientCapabilities): Promise<Client> {
  const client = new Client(
    { name: 'bench-baseline', version: '1.0.0' },
    { ...(modern ? { versionNegotiation: { mode: 'auto' } } : {}), ...(capabilities ? { capabilities } : {}) },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
