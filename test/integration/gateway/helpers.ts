/** A host with real servers behind a gateway over HTTP, and SDK clients that use it as an agent would. */
import { request } from 'node:http';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Harness } from '../cli/harness.js';
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport, ClientCapabilities } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ElicitationPort, SamplingPort } from '../../../src/core/host-api.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import {
  Gateway,
  GatewayBridge,
  GatewayHttpServer,
  gatewayFeatures,
  type ExposureFilter,
  type GatewayOptions,
} from '../../../src/core/gateway/index.js';
import type { GatewayHttpOptions } from '../../../src/core/gateway/http.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { def, MemoryLogger, tempDir } from '../connection/helpers.js';
import { poll } from '../../support/poll.js';
import { withDeadline } from '../../support/wait.js';
import { gatewayPathEnv } from '../../support/gateway-path.js';

/** The editor's own dialog, as a fake port that records what it was asked. */
export class RecordingElicitation implements ElicitationPort {
  asked: string[] = [];
  elicit(_server: string, request: Parameters<ElicitationPort['elicit']>[1]): ReturnType<ElicitationPort['elicit']> {
    this.asked.push(request.message);
    return Promise.resolve({ action: 'accept', content: { name: 'from the editor' } });
  }
}

/** An in-process server whose `ask` tool asks its client for a name (elicitation) mid-call. */
export function askerDef(name = 'asker'): ServerDefinition {
  return def(name, {
    type: 'inprocess',
    id: name,
    start: async (transport: Transport) => {
      const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { logging: {} } });
      server.registerTool('ask', { description: 'Asks for a name' }, async () => {
        const answer = await server.server.elicitInput({
          mode: 'form',
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        return { content: [{ type: 'text', text: `${answer.action}: ${String(answer.content?.name ?? '')}` }] };
      });
      server.registerTool('log', { description: 'Sends a log line' }, async () => {
        await server.sendLoggingMessage({ level: 'warning', data: 'careful now' });
        return { content: [{ type: 'text', text: 'logged' }] };
      });
      await server.connect(transport);
    },
  });
}

export interface Rig {
  host: McpHost;
  gateway: Gateway;
  http: GatewayHttpServer;
  fallback: RecordingElicitation;
  logger: MemoryLogger;
  dispose(): Promise<void>;
}

/** @param editorSampling the editor's own sampling port (consent and model), the bridge's fallback. */
export async function startRig(
  defs: ServerDefinition[],
  filter: ExposureFilter & Pick<GatewayOptions, 'views' | 'resultLimit' | 'signIn' | 'agentIdleMs'> = {},
  editorSampling?: SamplingPort,
  httpOptions: Partial<GatewayHttpOptions> = {},
): Promise<Rig> {
  const logger = new MemoryLogger();
  const fallback = new RecordingElicitation();
  const bridge = new GatewayBridge(fallback, editorSampling);
  const host = createHost({
    logger,
    blobDir: tempDir('gw-blobs'),
    elicitation: bridge,
    features: bridge.featureOptions(),
  });
  host.setDefinitions(defs);
  await host.whenSettled();
  const gateway = new Gateway({ host, logger, bridge, features: gatewayFeatures(host), ...filter });
  const http = await GatewayHttpServer.start({ gateway, logger, maxSessions: 4, ...httpOptions });
  return {
    host,
    gateway,
    http,
    fallback,
    logger,
    async dispose() {
      await http.dispose();
      await gateway.dispose();
      await host.dispose();
    },
  };
}

/** @param endpoint the path and query after the gateway's `/mcp` (a profile, `?tools=all`). */
export async function agent(
  rig: Rig,
  capabilities: ClientCapabilities = {},
  endpoint = '',
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(rig.http.url + endpoint), {
    requestInit: { headers: { Authorization: `Bearer ${rig.http.token}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** Resolves once the gateway counts `n` agents that are there (now, or on a later change). */
export function untilAgents(gateway: Gateway, n: number, timeoutMs = 30_000): Promise<void> {
  let sub: { dispose(): void } | undefined;
  const reached = new Promise<void>((resolve) => {
    const check = (): void => {
      if (gateway.agentCount() !== n) return;
      sub?.dispose();
      resolve();
    };
    sub = gateway.onDidChangeAgents(check);
    check();
  });
  return withDeadline(reached, `${n} agent(s) counted (now ${gateway.agentCount()})`, timeoutMs).finally(() =>
    sub?.dispose(),
  );
}

/** The text of a tool result. */
export function text(r: unknown): string {
  return (((r as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .map((c) => c.text ?? '')
    .join('');
}

/** Ends the session (HTTP DELETE) and closes, as a well-behaved agent does. */
export async function closeAgent(client: Client): Promise<void> {
  const t = client.transport as StreamableHTTPClientTransport | undefined;
  await t?.terminateSession().catch(() => undefined);
  await client.close();
}

/** A raw POST to the gateway with exactly the given headers (Host included). */
export async function rawPost(port: number, headers: Record<string, string>): Promise<number> {
  return (await rawInitialize(port, headers)).status;
}

/** A raw initialize: its status and the session id the gateway gave. */
export function rawInitialize(
  port: number,
  headers: Record<string, string>,
): Promise<{ status: number; session?: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        const session = res.headers['mcp-session-id'];
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ...(typeof session === 'string' ? { session } : {}) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens the session's GET event stream (what a live agent keeps open); resolves once it is open, with a closer. */
export function holdStream(port: number, token: string, session: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'GET',
        headers: {
          Host: `127.0.0.1:${port}`,
          Authorization: `Bearer ${token}`,
          Accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-06-18',
        },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`GET stream: ${res.statusCode}`));
        res.resume();
        resolve(() => req.destroy());
      },
    );
    req.on('error', () => undefined);
    req.end();
  });
}

export { gatewayPathEnv } from '../../support/gateway-path.js';

/** `mcp-host serve` (the harness's built CLI) in `cwd`, as an agent launches it over stdio. */
export function serveTransport(
  h: Harness,
  cwd: string,
  args: string[] = ['--allow-project-servers'],
  extraEnv: Record<string, string> = {},
): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [h.cli, 'serve', ...args],
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: h.dir,
      MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
      MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
      ...gatewayPathEnv(),
      ...extraEnv,
    },
    stderr: 'pipe',
  });
}

/**
 * The agent's tool names once `pred` holds. `mcp-host serve` answers before its servers have
 * connected and offers their tools as they arrive (the first list waits 5 s at most), so a test that needs
 * a server's tools waits for them, with a deadline, as an agent that honours list_changed does.
 */
export async function untilTools(
  client: Client,
  pred: (names: string[]) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<string[]> {
  return poll(
    what,
    timeoutMs,
    async () => {
      const names = (await client.listTools()).tools.map((t) => t.name);
      return pred(names) ? names : undefined;
    },
    100,
  );
}

/** In search mode: once `search_tools` no longer reports servers still connecting. */
export async function untilSearchable(client: Client, timeoutMs = 60_000): Promise<void> {
  await poll(
    'every server searchable',
    timeoutMs,
    async () => {
      const r = JSON.parse(text(await client.callTool({ name: 'search_tools', arguments: { query: 'x' } }))) as {
        stillConnecting?: string[];
      };
      return r.stillConnecting?.length ? undefined : true;
    },
    100,
  );
}

export { z };
