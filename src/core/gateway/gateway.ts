/**
 * The gateway: one MCP server (an SDK `Server` per agent session) that re-exposes what every
 * connected server of the host offers. It consumes the host only through `McpHost` (servers(),
 * onDidChangeServer, callTool/readResource/getPrompt), so it runs the same in the editor, in
 * `mcp-host serve` and in tests. Transports are the caller's: HTTP (http.ts) or stdio.
 */
import { Server, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Transport, CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { CallOptions, McpHost } from '../host-api.js';
import { Emitter, type Event } from '../events.js';
import type { Disposable, Logger } from '../ports.js';
import type { GatewayBridge } from './bridge.js';
import {
  buildCatalog,
  fingerprint,
  resolveResourceUri,
  wrapUri,
  type Catalog,
  type ExposureFilter,
} from './catalog.js';
import { DormantTools } from './dormant.js';
import { toWireContents, toWireResourceContents } from '../capabilities/wire.js';
import { FEATURE_CAPABILITIES, installFeatureHandlers, type GatewayFeatures } from './features.js';
import { hintOf } from '../errors.js';
import { VERSION } from '../version.js';

export interface GatewayOptions extends ExposureFilter {
  host: McpHost;
  logger: Logger;
  /** The host's elicitation/sampling port, so questions go back to the asking agent. */
  bridge?: GatewayBridge;
  /** Resource subscriptions and completions (features.ts); without it the gateway offers neither. */
  features?: GatewayFeatures;
  serverInfo?: { name: string; version: string };
}

interface Agent {
  server: Server;
  transport: Transport;
  initialized: boolean;
  /** Servers this agent has called, read or prompted: the only ones whose log lines it is sent. */
  used: Set<string>;
}

type Kind = 'tools' | 'prompts' | 'resources';

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const hint = hintOf(err);
    return hint ? `${err.message} (${hint})` : err.message;
  }
  return String(err);
}

export class Gateway {
  private readonly agents = new Set<Agent>();
  private readonly changed = new Emitter<void>();
  private readonly subscriptions: Disposable[] = [];
  private catalog: Catalog;
  private readonly dormant = new DormantTools();
  private prints: Record<Kind, string>;
  private disposed = false;

  /** Fires when an agent connects or leaves. */
  readonly onDidChangeAgents: Event<void> = this.changed.event;

  constructor(private readonly opts: GatewayOptions) {
    this.catalog = this.build();
    this.prints = this.fingerprints(this.catalog);
    this.subscriptions.push(opts.host.onDidChangeServer(() => this.refresh()));
    if (opts.bridge) {
      this.subscriptions.push(
        opts.bridge.onServerLog(({ server, params }) => {
          if (!this.isExposed(server)) return;
          const logger = typeof params.logger === 'string' ? `${server}/${params.logger}` : server;
          // A log line may describe another agent's call (its arguments, its results): it goes only
          // to agents that used this server themselves.
          for (const a of this.agents) {
            if (a.initialized && a.used.has(server))
              a.server.sendLoggingMessage({ ...params, logger }, a.transport.sessionId).catch(() => undefined);
          }
        }),
      );
    }
  }

  private isExposed(server: string): boolean {
    return this.opts.isServerExposed?.(server) ?? true;
  }

  private build(): Catalog {
    return buildCatalog(this.opts.host.servers(), this.opts);
  }

  private fingerprints(c: Catalog): Record<Kind, string> {
    return {
      tools: fingerprint(
        c.tools.map((t) => [
          t.name,
          t.tool.description,
          t.tool.inputSchema,
          t.tool.outputSchema,
          t.tool.annotations,
          t.tool.title,
        ]),
      ),
      prompts: fingerprint(c.prompts.map((p) => [p.name, p.prompt.description, p.prompt.arguments])),
      resources: fingerprint([
        c.resources.map((r) => [r.uri, r.resource.name, r.resource.description]),
        c.templates.map((t) => t.uriTemplate),
      ]),
    };
  }

  /** Recomputes what is exposed and tells every agent which lists changed (also after a settings change). */
  refresh(): void {
    if (this.disposed) return;
    const next = this.build();
    const prints = this.fingerprints(next);
    this.dormant.update(this.catalog.tools, next.tools, this.opts.host.servers());
    this.catalog = next;
    const changed = (Object.keys(prints) as Kind[]).filter((k) => prints[k] !== this.prints[k]);
    this.prints = prints;
    if (changed.length === 0) return;
    for (const a of this.agents) {
      if (!a.initialized) continue;
      const send = (p: Promise<void>): void =>
        void p.catch((err: unknown) =>
          this.opts.logger.debug(`gateway: list_changed not delivered: ${errorText(err)}`),
        );
      if (changed.includes('tools')) send(a.server.sendToolListChanged());
      if (changed.includes('prompts')) send(a.server.sendPromptListChanged());
      if (changed.includes('resources')) send(a.server.sendResourceListChanged());
    }
  }

  /** Connected agents (sessions that finished `initialize`). */
  agentCount(): number {
    let n = 0;
    for (const a of this.agents) if (a.initialized) n++;
    return n;
  }

  /** What the gateway exposes right now. */
  current(): Catalog {
    return this.catalog;
  }

  /** Serves one agent over `transport` until it closes. */
  async connect(transport: Transport): Promise<void> {
    if (this.disposed) throw new Error('the gateway has been stopped');
    const features = this.opts.features;
    const server = new Server(this.opts.serverInfo ?? { name: 'mcp-host-gateway', version: VERSION }, {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, ...(features ? { subscribe: true } : {}) },
        logging: {},
        ...(features ? FEATURE_CAPABILITIES : {}),
      },
      instructions:
        'MCP Host gateway: the tools, prompts and resources of every MCP server connected in the editor, named <server>__<name>.',
    });
    const agent: Agent = { server, transport, initialized: false, used: new Set() };
    this.install(agent);
    const extras = features ? installFeatureHandlers(server, () => this.catalog, features) : undefined;
    server.oninitialized = () => {
      agent.initialized = true;
      const info = server.getClientVersion();
      this.opts.logger.info(`gateway: agent connected (${info?.name ?? 'unknown'} ${info?.version ?? ''})`.trim());
      this.changed.fire();
    };
    server.onclose = () => {
      extras?.dispose();
      if (!this.agents.delete(agent)) return;
      if (agent.initialized) this.opts.logger.info('gateway: agent disconnected');
      this.changed.fire();
    };
    this.agents.add(agent);
    await server.connect(transport);
  }

  private callOptions(agent: Agent, target: string, ctx: ServerContext): CallOptions {
    agent.used.add(target);
    const token = ctx.mcpReq._meta?.progressToken;
    // The origin lets the bridge send a server's question back to this agent request.
    const opts: CallOptions = {
      signal: ctx.mcpReq.signal,
      ...(this.opts.bridge ? { origin: this.opts.bridge.origin(agent.server, ctx.mcpReq.id) } : {}),
    };
    if (token !== undefined) {
      opts.onProgress = (p) => {
        ctx.mcpReq
          .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
          .catch(() => undefined);
      };
    }
    return opts;
  }

  private mapUri(server: string): (uri: string) => string {
    return (uri) =>
      this.catalog.resources.find((r) => r.resource.server === server && r.resource.uri === uri)?.uri ?? uri;
  }

  private install(agent: Agent): void {
    const s = agent.server;
    s.setRequestHandler('tools/list', () => ({
      tools: this.catalog.tools.map(({ name, tool }) => ({
        name,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        description: tool.description,
        inputSchema: tool.inputSchema as { type: 'object' },
        ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema as { type: 'object' } } : {}),
        annotations: tool.annotations,
      })),
    }));
    s.setRequestHandler('tools/call', async (req, ctx): Promise<CallToolResult> => {
      // A server that lost its connection reconnects on this call, as the host's next use does.
      const entry = this.catalog.tools.find((t) => t.name === req.params.name) ?? this.dormant.find(req.params.name);
      if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool "${req.params.name}"`);
      const opts = this.callOptions(agent, entry.tool.server, ctx);
      try {
        const r = await this.opts.host.callTool(entry.tool.server, entry.tool.name, req.params.arguments ?? {}, opts);
        return {
          content: await toWireContents(r.content, { mapUri: this.mapUri(entry.tool.server) }),
          ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}),
          ...(r.isError ? { isError: true } : {}),
        };
      } catch (err) {
        // A host failure (server down, timeout, bad arguments) is a tool error the model can read.
        return { content: [{ type: 'text', text: errorText(err) }], isError: true };
      }
    });
    s.setRequestHandler('prompts/list', () => ({
      prompts: this.catalog.prompts.map(({ name, prompt }) => ({
        name,
        ...(prompt.title !== undefined ? { title: prompt.title } : {}),
        ...(prompt.description !== undefined ? { description: prompt.description } : {}),
        arguments: prompt.arguments,
      })),
    }));
    s.setRequestHandler('prompts/get', async (req, ctx) => {
      const entry = this.catalog.prompts.find((p) => p.name === req.params.name);
      if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt "${req.params.name}"`);
      const server = entry.prompt.server;
      const opts = this.callOptions(agent, server, ctx);
      try {
        const r = await this.opts.host.getPrompt(server, entry.prompt.name, req.params.arguments ?? {}, opts);
        const messages = [];
        for (const m of r.messages)
          messages.push({
            role: m.role,
            content: (await toWireContents([m.content], { mapUri: this.mapUri(server) }))[0]!,
          });
        return { ...(r.description !== undefined ? { description: r.description } : {}), messages };
      } catch (err) {
        throw err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, errorText(err));
      }
    });
    s.setRequestHandler('resources/list', () => ({
      resources: this.catalog.resources.map(({ uri, resource: r }) => ({
        uri,
        name: r.name,
        ...(r.title !== undefined ? { title: r.title } : {}),
        ...(r.description !== undefined ? { description: r.description } : {}),
        ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
      })),
    }));
    s.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: this.catalog.templates.map(({ uriTemplate, template: t }) => ({
        uriTemplate,
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        ...(t.description !== undefined ? { description: t.description } : {}),
        ...(t.mimeType !== undefined ? { mimeType: t.mimeType } : {}),
      })),
    }));
    s.setRequestHandler('resources/read', async (req, ctx) => {
      const target = resolveResourceUri(this.catalog, req.params.uri);
      if (!target)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `no exposed server offers the resource ${req.params.uri}`,
        );
      const opts = this.callOptions(agent, target.server, ctx);
      try {
        const r = await this.opts.host.readResource(target.server, target.uri, opts);
        const wrapped = req.params.uri !== target.uri;
        // A wrapped URI comes back wrapped, so the agent can match the answer to its question.
        const map = (u: string): string => (wrapped ? wrapUri(target.server, u) : this.mapUri(target.server)(u));
        return { contents: await toWireResourceContents(r, { mapUri: map }) };
      } catch (err) {
        throw err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, errorText(err));
      }
    });
  }

  /** Closes every agent session. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    const agents = [...this.agents];
    await Promise.all(agents.map((a) => a.server.close().catch(() => undefined)));
    this.agents.clear();
    this.changed.fire();
    this.changed.dispose();
  }
}
