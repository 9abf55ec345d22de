/**
 * The SDK Client with one 2025-11-25 behaviour SDK v2 dropped: a server may ask for the answer to
 * `elicitation/create` or `sampling/createMessage` as a task (`params.task`), and the answer is then
 * a `CreateTaskResult`, which v2's own result check (it knows only the direct answer) refuses.
 * And one 2026-07-28 behaviour it leaves to the host: the log level the user picked travels in
 * every request's `_meta` (there is no `logging/setLevel`; without the key a server logs nothing).
 * And change notifications on 2026-07-28 (listen.ts): one `subscriptions/listen` stream per
 * connection, with `resources/subscribe` / `/unsubscribe` answered from it, so callers use the same
 * subscription API on both eras. And a 2026-07-28 list or read result without cache hints is
 * taken as stale (cache-hints.ts) instead of refused. Everything else goes through the SDK's checks unchanged.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  isTaskAugmentedRequestParams,
} from '@modelcontextprotocol/client';
import type {
  ClientContext,
  EmptyResult,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  LoggingLevel,
  MessageExtraInfo,
  RequestOptions,
  Result,
  ServerCapabilities,
  SubscribeRequest,
  UnsubscribeRequest,
} from '@modelcontextprotocol/client';
import { CreateTaskResultSchema } from '@modelcontextprotocol/core';
import { ListenStream, type ListenOptions } from './listen.js';
import {
  noCacheableInFlight,
  withAbsentCacheHints,
  type CacheableInFlight,
  type CacheableMethod,
} from './cache-hints.js';
import {
  HOST_TASK_META_KEY,
  TASKS_EXTENSION_ID,
  asTaskHandle,
  type TaskInputRequest,
} from '../features/modern-tasks.js';

type Handler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

export class HostClient extends Client {
  /** Sent with each request on a modern connection (features/logging.ts applyLogLevel). */
  logLevel: LoggingLevel | undefined = undefined;
  /** The change-notification stream of a modern connection (startListening). */
  listenStream: ListenStream | undefined;
  /**
   * Streamable HTTP: on 2026-07-28 the SDK copies a tool's `x-mcp-header` arguments into request
   * headers, read from the tool list in its response cache (and refetches that list when the server
   * says the headers are stale). Set by connect.ts.
   */
  sendsToolHeaders = false;
  /** Told of each 2026-07-28 list or read result that came without cache hints (the connection's plugin: server-connection.ts). */
  onMissingCacheHints: ((method: CacheableMethod) => void) | undefined;
  /** Cacheable requests in flight on a modern connection: only then is a response looked at for hints. */
  private readonly cacheableInFlight: CacheableInFlight = noCacheableInFlight();
  private cacheableCount = 0;
  /** The last 2026-07-28 `_meta` envelope and what it was made from (_outboundMetaEnvelope). */
  private sentEnvelope:
    | {
        caps: unknown;
        server: unknown;
        logLevel: unknown;
        version: unknown;
        info: unknown;
        value: Record<string, unknown>;
      }
    | undefined;

  /**
   * Whether the SDK keeps its own copy of a list (its response cache). The host keeps every list
   * itself, so the SDK's copy is needed only where the SDK reads it on each call: the tool list of a
   * modern Streamable HTTP connection (header mirroring, above). Everywhere else it would be one more
   * copy of every list per server, and each call would look it up (and check the tool's output
   * schema from it: capabilities/output-check.ts does that instead).
   */
  keepsListInSdkCache(kind: 'tools' | 'resources' | 'resourceTemplates' | 'prompts'): boolean {
    return kind === 'tools' && this.sendsToolHeaders && this.getProtocolEra() === 'modern';
  }

  /**
   * On a modern connection, opens the change-notification stream; resolves once it is acknowledged
   * (or failed and will retry). A legacy server sends its notifications unasked: nothing to open.
   */
  startListening(o: Omit<ListenOptions, 'replay'>): Promise<void> {
    if (this.getProtocolEra() !== 'modern') return Promise.resolve();
    this.listenStream?.dispose();
    const stream = new ListenStream(this, {
      ...o,
      replay: (method, params) => this._onnotification({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }),
    });
    this.listenStream = stream;
    return stream.start();
  }

  override listTools(...a: Parameters<Client['listTools']>): ReturnType<Client['listTools']> {
    return this.cacheable('tools/list', () => super.listTools(...a));
  }

  override listPrompts(...a: Parameters<Client['listPrompts']>): ReturnType<Client['listPrompts']> {
    return this.cacheable('prompts/list', () => super.listPrompts(...a));
  }

  override listResources(...a: Parameters<Client['listResources']>): ReturnType<Client['listResources']> {
    return this.cacheable('resources/list', () => super.listResources(...a));
  }

  override listResourceTemplates(
    ...a: Parameters<Client['listResourceTemplates']>
  ): ReturnType<Client['listResourceTemplates']> {
    return this.cacheable('resources/templates/list', () => super.listResourceTemplates(...a));
  }

  override readResource(...a: Parameters<Client['readResource']>): ReturnType<Client['readResource']> {
    return this.cacheable('resources/read', () => super.readResource(...a));
  }

  /** Runs one cacheable request (all its pages), counted while it is in flight (_onresponse). */
  private async cacheable<T>(method: CacheableMethod, run: () => Promise<T>): Promise<T> {
    if (this.getProtocolEra() !== 'modern') return run();
    this.cacheableInFlight[method]++;
    this.cacheableCount++;
    try {
      return await run();
    } finally {
      this.cacheableInFlight[method]--;
      this.cacheableCount--;
    }
  }

  override async subscribeResource(params: SubscribeRequest['params'], options?: RequestOptions): Promise<EmptyResult> {
    if (!this.listenStream) return super.subscribeResource(params, options);
    await this.listenStream.subscribe(params.uri);
    return {};
  }

  override async unsubscribeResource(
    params: UnsubscribeRequest['params'],
    options?: RequestOptions,
  ): Promise<EmptyResult> {
    if (!this.listenStream) return super.unsubscribeResource(params, options);
    await this.listenStream.unsubscribe(params.uri);
    return {};
  }

  /**
   * Responses are handled in arrival order with notifications (below). A `resultType: "task"` answer (the tasks extension, features/modern-tasks.ts) is one v2's result
   * check refuses outright; it reaches the caller as an error-flagged empty result carrying the task,
   * so no output-schema check runs on it and only the task-aware call reads it.
   */
  protected override _onresponse(response: JSONRPCResponse): void {
    if (this.cacheableCount > 0 && 'result' in response) {
      const filled = withAbsentCacheHints(response.result, this.cacheableInFlight);
      if (filled) {
        response = { ...response, result: filled.result as Result };
        this.onMissingCacheHints?.(filled.method);
      }
    }
    if ('result' in response) {
      const task = asTaskHandle(response.result);
      if (task) {
        const { _meta, ...handle } = task;
        response = {
          ...response,
          result: {
            resultType: 'complete',
            content: [],
            isError: true,
            _meta: { ...(_meta as Record<string, unknown> | undefined), [HOST_TASK_META_KEY]: handle },
          },
        };
      }
    }
    // The SDK runs notification handlers a microtask late but a response at once, and the response
    // drops the request's progress handler: progress sent just before the result (same stdout
    // chunk) was lost. One microtask puts the response behind the notifications that came first;
    // with none of them waiting (most responses) it is handled at once, as the SDK would.
    if (this.notificationsQueued > 0) queueMicrotask(() => super._onresponse(response));
    else super._onresponse(response);
  }

  /** Notifications whose handlers the SDK has queued and not yet run (_onresponse). */
  private notificationsQueued = 0;
  private readonly notificationRan = (): void => void this.notificationsQueued--;

  protected override _onnotification(raw: JSONRPCNotification, extra?: MessageExtraInfo): void {
    super._onnotification(raw, extra);
    // Queued after the SDK's own microtask for the handler, so it runs once that one has.
    this.notificationsQueued++;
    queueMicrotask(this.notificationRan);
  }

  /** Answers one `inputRequests` entry of a task through the handler a server request would reach. */
  async answerInputRequest(key: string, entry: TaskInputRequest, signal: AbortSignal): Promise<Result> {
    const handler = this._getRequestHandler(entry.method);
    if (!handler) throw new Error(`no handler for ${entry.method} (input request ${key})`);
    const request: JSONRPCRequest = {
      jsonrpc: '2.0',
      id: key,
      method: entry.method,
      ...(entry.params ? { params: entry.params } : {}),
    };
    const ctx = this.buildContext({
      mcpReq: {
        id: key,
        method: entry.method,
        _meta: entry.params?._meta as Record<string, unknown> | undefined,
        signal,
        send: () => Promise.reject(new Error('not available while answering a task input request')),
        notify: () => Promise.reject(new Error('not available while answering a task input request')),
      },
    } as unknown as Parameters<HostClient['buildContext']>[0]);
    return handler(request, ctx);
  }

  /** The transport closed on its own: its stream is gone with it, and no re-open may be tried. */
  protected override _onclose(): void {
    this.listenStream?.dispose();
    this.listenStream = undefined;
    super._onclose();
  }

  override async close(): Promise<void> {
    this.listenStream?.dispose();
    this.listenStream = undefined;
    await super.close();
  }

  /**
   * The `_meta` every 2026-07-28 request carries. Its capabilities leave out `tasks`: that is the
   * 2025-11-25 capability (on 2026-07-28 tasks are the extension declared under `extensions`), and
   * the server would parse it on every request. They also leave out the tasks extension where the
   * server does not offer it: such a server makes no task of a request (features/modern-tasks.ts reads
   * the same declaration), and parsing the declaration on each request was a measurable share of a
   * small server's work per call (bench/README.md). The result is made again only when one of its
   * parts changes, not per request.
   */
  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (!envelope) return envelope;
    const caps = envelope[CLIENT_CAPABILITIES_META_KEY];
    const server = this.getServerCapabilities();
    const logLevel = this.logLevel;
    const last = this.sentEnvelope;
    if (
      last &&
      last.caps === caps &&
      last.server === server &&
      last.logLevel === logLevel &&
      last.version === envelope[PROTOCOL_VERSION_META_KEY] &&
      last.info === envelope[CLIENT_INFO_META_KEY]
    )
      return last.value;
    const modern = modernCapabilities(caps, server);
    const value =
      modern === caps && !logLevel
        ? envelope
        : {
            ...envelope,
            [CLIENT_CAPABILITIES_META_KEY]: modern,
            ...(logLevel ? { [LOG_LEVEL_META_KEY]: logLevel } : {}),
          };
    this.sentEnvelope = {
      caps,
      server,
      logLevel,
      version: envelope[PROTOCOL_VERSION_META_KEY],
      info: envelope[CLIENT_INFO_META_KEY],
      value,
    };
    return value;
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, handler);
    if (method !== 'elicitation/create' && method !== 'sampling/createMessage') return checked;
    return async (request, ctx) => {
      if (!isTaskAugmentedRequestParams(request.params)) return checked(request, ctx);
      const result = await handler(request, ctx);
      // Our handlers answer a task request with a task (features/tasks.ts answerMaybeAsTask), or
      // directly when tasks are off.
      return 'task' in result ? CreateTaskResultSchema.parse(result) : result;
    };
  }
}

/** The capabilities of a 2026-07-28 request: without `tasks`, and the tasks extension only for a server offering it. */
function modernCapabilities(caps: unknown, server: ServerCapabilities | undefined): unknown {
  if (!caps || typeof caps !== 'object') return caps;
  const { tasks, extensions, ...rest } = caps as { tasks?: unknown; extensions?: Record<string, unknown> };
  const offered = (server as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  const dropTasksExtension =
    extensions?.[TASKS_EXTENSION_ID] !== undefined && offered?.[TASKS_EXTENSION_ID] === undefined;
  if (tasks === undefined && !dropTasksExtension) return caps;
  if (!dropTasksExtension) return extensions === undefined ? rest : { ...rest, extensions };
  const { [TASKS_EXTENSION_ID]: _unoffered, ...others } = extensions!;
  return Object.keys(others).length ? { ...rest, extensions: others } : rest;
}
