/**
 * The gateway's forwarding fast path on the agent side. A 2025-11-25 agent's `tools/call` for an
 * upstream tool is taken off the agent's transport before the SDK server sees it: parsed once (by
 * the transport), the name looked up in the agent's catalogue, the call made through the host
 * (`forwardToolCall`, so policy, the in-flight record, the audit, arguments and output checks all
 * hold) and answered as a frame with the agent's id. What the SDK server would add per request (a
 * context, an abort controller of its own, its dispatch and its response path) is not needed for
 * a call the gateway only forwards.
 *
 * Which messages take it (everything else goes to the SDK server, the full path):
 * - `tools/call` of an initialized 2025-11-25 agent, for a tool of its view (profile, tool
 *   switches: its catalogue), not a sign-in stand-in, not a dormant tool, not tool search's own
 *   tools; params of the shape the SDK would accept. An unknown name, bad params and everything
 *   else get the SDK server's answer.
 * - `resources/read` of an upstream resource of the agent's catalogue (its own cut results,
 *   `mcp-host-result://`, are read by the SDK server's handler), and `prompts/get` of one of its
 *   prompts with string arguments.
 * - `notifications/cancelled` naming a request the fast path holds: it ends that call (its
 *   upstream request is cancelled in turn), as the SDK server would.
 * A 2026-07-28 agent's call keeps the SDK server (its `input_required` rounds, input-bridge.ts).
 * The result is the same either way: cut to the limit with `mcp-host-result://` pages
 * (result-limit.ts), URIs mapped, an upstream failure a tool error.
 */
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { WrappedTransport } from '../wrapped-transport.js';
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  MessageExtraInfo,
  Result,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { SEARCH_TOOL_NAMES } from './tool-search.js';
import { resolveResourceUri } from './catalog.js';
import { RESULT_SCHEME } from './result-limit.js';
import { getPrompt, readUpstream } from './forward-reads.js';
import { callEntry, toolNamed, type AgentDeps, type AgentRequest } from './agent-calls.js';
import { errorText, type Agent } from './agent.js';

type Send = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;

/** The work of one request taken, once its context is made. */
type Work = (req: AgentRequest) => Promise<Result>;

/** The error of a JSON-RPC answer, as the SDK server makes it from what its handler threw. */
function errorOf(err: unknown): { code: number; message: string; data?: unknown } {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: typeof e.code === 'number' && Number.isSafeInteger(e.code) ? e.code : ProtocolErrorCode.InternalError,
    message: typeof e.message === 'string' ? e.message : 'Internal error',
    ...(e.data !== undefined ? { data: e.data } : {}),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One agent's requests on the fast path. */
export class FastCalls {
  /** Requests taken and not yet answered, by id, each with its controller (cancellation). */
  private readonly open = new Map<string | number, AbortController>();

  constructor(
    private readonly deps: AgentDeps,
    private readonly agent: Agent,
  ) {}

  /** Whether the fast path answers `msg` (then it does, through `send`); false leaves it to the SDK server. */
  take(msg: JSONRPCRequest, send: Send): boolean {
    const p = msg.params;
    if (!this.agent.initialized || !isRecord(p) || this.open.has(msg.id)) return false;
    const work =
      msg.method === 'tools/call'
        ? this.toolCall(p)
        : msg.method === 'resources/read'
          ? this.read(p)
          : msg.method === 'prompts/get'
            ? this.prompt(p)
            : undefined;
    if (!work) return false;
    const id = msg.id;
    const ctl = new AbortController();
    this.open.set(id, ctl);
    const related = { relatedRequestId: id };
    const token = isRecord(p._meta) ? p._meta.progressToken : undefined;
    const req: AgentRequest = {
      id,
      signal: ctl.signal,
      ...(typeof token === 'string' || typeof token === 'number' ? { progressToken: token } : {}),
      notify: (n) => send({ jsonrpc: '2.0', ...n } as JSONRPCMessage, related),
    };
    this.deps.paths.fast++;
    const answer = (m: JSONRPCMessage): void => {
      this.open.delete(id);
      // A cancelled request gets no answer (the SDK server drops it too).
      if (ctl.signal.aborted) return;
      send(m, related).catch((err: unknown) =>
        this.deps.opts.logger.debug(`gateway: an answer did not reach the agent: ${errorText(err)}`),
      );
    };
    work(req).then(
      (result) => answer({ jsonrpc: '2.0', id, result } as JSONRPCMessage),
      // What the SDK server answers for a handler that threw.
      (err: unknown) => answer({ jsonrpc: '2.0', id, error: errorOf(err) } as JSONRPCMessage),
    );
    return true;
  }

  /** A call of a tool of the agent's catalogue, with the params the SDK would accept. */
  private toolCall(p: Record<string, unknown>): Work | undefined {
    if (typeof p.name !== 'string' || SEARCH_TOOL_NAMES.includes(p.name)) return undefined;
    const args = p.arguments ?? {};
    if (!isRecord(args)) return undefined;
    // Only a tool of the agent's catalogue: dormant tools reconnect their server and sign-in
    // stand-ins sign in, the full path's work.
    const entry = toolNamed(this.deps.catalogOf(this.agent), p.name);
    if (!entry || entry.signIn) return undefined;
    return (req) => callEntry(this.deps, this.agent, entry, args, req);
  }

  /** A read of an upstream resource of the agent's catalogue (its cut results are the full path's). */
  private read(p: Record<string, unknown>): Work | undefined {
    const uri = p.uri;
    if (typeof uri !== 'string' || uri.startsWith(RESULT_SCHEME)) return undefined;
    const target = resolveResourceUri(this.deps.catalogOf(this.agent), uri);
    if (!target) return undefined;
    return (req) => readUpstream(this.deps, this.agent, uri, target, req);
  }

  /** A prompt of the agent's catalogue, its arguments all strings (the SDK's schema). */
  private prompt(p: Record<string, unknown>): Work | undefined {
    const args = p.arguments ?? {};
    if (typeof p.name !== 'string' || !isRecord(args) || !Object.values(args).every((v) => typeof v === 'string'))
      return undefined;
    const entry = this.deps.catalogOf(this.agent).prompts.find((x) => x.name === p.name);
    if (!entry) return undefined;
    return (req) => getPrompt(this.deps, this.agent, entry.prompt, args as Record<string, string>, req);
  }

  /** A `notifications/cancelled` for a request taken here ends it; false when it names no such request. */
  cancelled(msg: JSONRPCMessage): boolean {
    const params = (msg as { params?: { requestId?: unknown; reason?: unknown } }).params;
    const id = params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const ctl = this.open.get(id);
    if (!ctl) return false;
    this.open.delete(id);
    ctl.abort(params?.reason ?? 'cancelled by the agent');
    return true;
  }

  /** The agent left: its calls end. */
  dispose(): void {
    for (const ctl of this.open.values()) ctl.abort('the agent disconnected');
    this.open.clear();
  }
}

/**
 * `inner`, with the requests `fast()` takes answered on the fast path; every other message reaches
 * the SDK server as before. A transport of its own around `inner`, its only reader, as
 * trace/transport.ts is.
 */
export class FastPathTransport extends WrappedTransport {
  private readonly sendInner: Send;

  constructor(
    inner: Transport,
    private readonly fast: () => FastCalls | undefined,
  ) {
    super(inner);
    this.sendInner = (m, o) => inner.send(m, o);
    inner.onmessage = (msg: JSONRPCMessage, extra?: MessageExtraInfo) => {
      const m = msg as { method?: unknown; id?: unknown };
      if (typeof m.method === 'string') {
        const f = this.fast();
        if (
          f &&
          (m.id !== undefined
            ? f.take(msg as JSONRPCRequest, this.sendInner)
            : m.method === 'notifications/cancelled' && f.cancelled(msg))
        )
          return;
      }
      this.onmessage?.(msg, extra);
    };
    // Handlers the caller set before (http.ts drops a closed session from its map) still run, as
    // they would with the SDK server's own `connect`, which chains them.
    const closed = inner.onclose;
    const failed = inner.onerror;
    inner.onclose = () => {
      closed?.();
      this.fast()?.dispose();
      this.onclose?.();
    };
    inner.onerror = (err) => {
      failed?.(err);
      this.onerror?.(err);
    };
  }
}
