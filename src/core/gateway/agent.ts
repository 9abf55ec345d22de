/**
 * The gateway's options and its picture of one connected agent (gateway.ts), shared with the
 * request handlers (agent-handlers.ts) and the calls they make (agent-calls.ts).
 */
import type { Server } from '@modelcontextprotocol/server';
import type { McpHost } from '../host.js';
import type { Logger } from '../ports.js';
import { hintOf } from '../errors.js';
import type { GatewayBridge } from './bridge.js';
import type { ExposureFilter } from './catalog.js';
import type { GatewayFeatures } from './features.js';
import type { AgentView, GatewayViews } from './views.js';
import type { ResultLimitOptions, ResultPages, ResultStore } from './result-limit.js';
import type { AgentSignIn } from './auth-tool.js';
import type { GatewayFrontEnd } from './instructions.js';
import type { McpTelemetry } from '../telemetry/index.js';

export interface GatewayOptions extends ExposureFilter {
  host: McpHost;
  logger: Logger;
  /** The host's elicitation/sampling port, so questions go back to the asking agent. */
  bridge?: GatewayBridge;
  /** Resource subscriptions and completions (features.ts); without it the gateway offers neither. */
  features?: GatewayFeatures;
  serverInfo?: { name: string; version: string };
  /** Tool search mode and profiles, read live (views.ts); without them every agent sees every tool. */
  views?: GatewayViews;
  /** Tool results past this reach agents cut (result-limit.ts); read live. Default 25,000 tokens. */
  resultLimit?: () => ResultLimitOptions;
  /** Signs in to a server for an agent (auth-tool.ts); without it, such servers are not shown. */
  signIn?: AgentSignIn;
  /** How long a stateless (2026-07-28 HTTP) agent counts as there after its last request (presence.ts). Default 60 s. */
  agentIdleMs?: number;
  /** Who runs the gateway, for the wording of its instructions. Default `editor`. */
  frontEnd?: GatewayFrontEnd;
  /**
   * A list asked for before every server has settled waits for them this long at most, counted
   * from the gateway's start (`serve`: its servers start with it). Agents that ignore
   * `list_changed` still see the servers that connect quickly; one server that never answers
   * delays a list by this much, never by its connect timeout. Default 0: lists never wait.
   */
  firstListWaitMs?: number;
  /**
   * Each agent with a connection keeps its own cut results (`mcp-host-result://`), readable by it
   * alone and dropped when it leaves: a gateway shared by several agent sessions (`serve`'s shared
   * gateway) must not hand one session's results to another. Default: one store for all agents.
   */
  privateResults?: boolean;
  /** OpenTelemetry spans and metrics of every agent request (core/telemetry/); none when omitted. */
  telemetry?: McpTelemetry;
  /**
   * Where the cut results of agents without a store of their own are kept: one process's memory by
   * default; the team gateway's processes share theirs (core/cluster/), so any of them reads a page.
   */
  results?: ResultPages;
  /**
   * The forwarding fast path (fast-path.ts, connection/frame-channel.ts): a 2025-11-25 agent's
   * `tools/call`, `resources/read` and `prompts/get` are taken off its transport without the SDK
   * server, and go to a 2025-11-25 server as frames without the SDK client (a plain call). Default: on, unless the environment says
   * `MCP_HOST_GATEWAY_FAST_PATH=0` (the tests run both paths with it).
   */
  fastPath?: boolean;
}

/** `MCP_HOST_GATEWAY_FAST_PATH=0` turns the fast path off (GatewayOptions.fastPath). */
export const FAST_PATH_ENV = 'MCP_HOST_GATEWAY_FAST_PATH';

export interface Agent {
  server: Server;
  initialized: boolean;
  /** Servers this agent has called, read or prompted: the only ones whose log lines it is sent. */
  used: Set<string>;
  view: AgentView;
  /** A 2026-07-28 agent: stateless, questions mid-call go back as `input_required`. */
  modern: boolean;
  /** Lives for one HTTP exchange: list changes reach its endpoint's listen streams instead (`watchLists`, http.ts). */
  perRequest: boolean;
  /** Whom its parked calls' `requestState` belongs to, for an agent that outlives one exchange (a connection). */
  connectionId?: string;
  /** Its own cut results, with `privateResults`. */
  results?: ResultStore;
}

/** The era an agent's server speaks: `legacy` (2025-11-25, sessions) or `modern` (2026-07-28). */
export type AgentEra = 'legacy' | 'modern';

export type Kind = 'tools' | 'prompts' | 'resources';

export const KINDS: readonly Kind[] = ['tools', 'prompts', 'resources'];

export function viewKey(view: AgentView): string {
  return JSON.stringify([view.profile ?? null, view.tools ?? null]);
}

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const hint = hintOf(err);
    return hint ? `${err.message} (${hint})` : err.message;
  }
  return String(err);
}
