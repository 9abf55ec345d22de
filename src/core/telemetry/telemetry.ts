/**
 * MCP telemetry for the host and the gateway, through the OpenTelemetry API: the upstream side
 * (each launch's transport to a server: CLIENT spans, trace context injected) and the agent side
 * (each transport an agent reaches the gateway through: SERVER spans, trace context extracted).
 * Both are taps on the one wrapper transport (trace/transport.ts). Made only when telemetry is
 * configured: when it is not, nothing is wrapped at all (and with no SDK registered the API's own
 * tracer and meter are no-ops).
 */
import type { Server, Transport } from '@modelcontextprotocol/server';
import type { ServerDefinition } from '../config/types.js';
import { ObservedTransport } from '../trace/transport.js';
import { makeInstruments, type TelemetryInstruments, type TelemetryProviders } from './instruments.js';
import { MessageSpans } from './message-spans.js';
import type { WireKind } from './semconv.js';

const unobserved = (): void => undefined;

/** How `def` is reached, as the conventions record it: the server's host and port, never its path or query. */
export function wireOf(def: ServerDefinition): WireKind {
  const c = def.config;
  if (c.type === 'stdio') return { transport: 'pipe' };
  if (c.type === 'inprocess') return { transport: 'pipe' };
  try {
    const u = new URL(c.url);
    const port = u.port !== '' ? Number(u.port) : undefined;
    return {
      transport: 'tcp',
      protocol: c.type === 'ws' ? 'websocket' : 'http',
      server: { address: u.hostname, ...(port !== undefined ? { port } : {}) },
    };
  } catch {
    return { transport: 'tcp', protocol: c.type === 'ws' ? 'websocket' : 'http' };
  }
}

/** An agent's transport: Streamable HTTP (the SDK's server transports answer requests) or a pipe. */
function agentWire(t: Transport): WireKind {
  return 'handleRequest' in t || 'handleMessage' in t ? { transport: 'tcp', protocol: 'http' } : { transport: 'pipe' };
}

export class McpTelemetry {
  private readonly inst: TelemetryInstruments;

  constructor(providers: TelemetryProviders = {}) {
    this.inst = makeInstruments(providers);
  }

  /** A launch's transport to `def` (HostOptions.wrapTransport): this process is the MCP client. */
  upstream(def: ServerDefinition, transport: Transport): Transport {
    const spans = new MessageSpans(this.inst, {
      role: 'client',
      wire: wireOf(def),
      sessionId: () => transport.sessionId,
      session: true,
    });
    return new ObservedTransport(transport, unobserved, spans);
  }

  /** A transport an agent reaches the gateway through: this process is the MCP server. */
  agent(transport: Transport, o: { perRequest: boolean; wire?: WireKind }): Transport {
    const spans = new MessageSpans(this.inst, {
      role: 'server',
      wire: o.wire ?? agentWire(transport),
      sessionId: () => transport.sessionId,
      // A 2026-07-28 exchange is one request, not a session.
      session: !o.perRequest,
    });
    return new ObservedTransport(transport, unobserved, spans);
  }

  /**
   * `server` (a gateway agent server for one 2026-07-28 HTTP exchange) with the transport it is
   * connected to observed: the SDK makes that transport and connects it itself (createMcpHandler).
   * Agents with a connection (2025-11-25 HTTP, stdio) are observed by their transport (`agent()`).
   */
  observeAgentServer(server: Server): void {
    const connect = server.connect.bind(server);
    server.connect = (transport: Transport) => connect(this.agent(transport, { perRequest: true }));
  }
}
