/**
 * `mcp-host serve --http` as a process of its own (as drain.test.ts starts it), for the tests that
 * need several: started from one --config file, resolved once it is listening and ready.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Harness } from '../../cli/harness.js';
import { poll } from '../../../support/poll.js';
import { withDeadline } from '../../../support/wait.js';
import { gatewayPathEnv } from '../../../support/gateway-path.js';

export interface GatewayProcess {
  url: string;
  origin: string;
  stderr(): string;
  /** Resolves with the exit code (null after a signal). */
  exit: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startGatewayProcess(
  h: Harness,
  config: string,
  cwd: string,
  name: string,
  extraArgs: string[] = [],
): Promise<GatewayProcess> {
  const proc = spawn(process.execPath, [h.cli, 'serve', '--http', '--port', '0', '--config', config, ...extraArgs], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: h.dir,
      MCP_HOST_BLOB_DIR: join(h.dir, `blobs-${name}`),
      ...gatewayPathEnv(),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  let exited = false;
  void exit.then(() => (exited = true));
  const stop = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> => {
    if (!exited) proc.kill(signal);
    return withDeadline(exit, `gateway ${name} to exit`, 60_000);
  };
  try {
    const [, url] = await poll(`gateway ${name} to say where it listens`, 60_000, async () => {
      if (exited) throw new Error(`gateway ${name} exited: ${stderr}`);
      return /listening on (\S+) \(resource/.exec(stderr) ?? undefined;
    });
    const origin = new URL(url!).origin;
    await poll(`gateway ${name} ready`, 30_000, async () =>
      (await fetch(`${origin}/readyz`)).status === 200 ? true : undefined,
    );
    return { url: url!, origin, stderr: () => stderr, exit, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** An SDK agent on `url` with `token`; `modern` pins 2026-07-28 (stateless, `subscriptions/listen`). */
export async function agentOn(url: string, token: string, modern: boolean): Promise<Client> {
  const client = new Client(
    { name: 'cluster-agent', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** What `/healthz` says of the shared state. */
export async function sharedHealth(origin: string): Promise<Record<string, unknown>> {
  const body = (await (await fetch(`${origin}/healthz`)).json()) as { shared?: Record<string, unknown> };
  return body.shared ?? {};
}
