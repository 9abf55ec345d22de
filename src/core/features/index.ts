/**
 * The protocol features beyond lists and calls, hooked into each launch by its plugin
 * (connection/plugins/client-features.ts): `capabilities` (what initialize declares), `setup`
 * (handlers and a task store on a fresh client), `connected` (set the log level, start pinging,
 * re-subscribe), and `callTool` (plain or as a task).
 */
import type { CallToolRequestOptions, Client, CallToolResult, ClientCapabilities } from '@modelcontextprotocol/client';
import type { HostTool } from '../host-data.js';
import { ClientTaskStore } from './client-task-store.js';
import type { Clock, Disposable, Logger } from '../ports.js';
import type { RelatedCalls } from '../host-data.js';
import { applyLogLevel, installLogging } from './logging.js';
import { startPinging } from './ping.js';
import { ResourceSubscriptions } from './subscriptions.js';
import {
  TaskRegistry,
  answerMaybeAsTask,
  callToolAsTask,
  runsAsTask,
  tasksCapability,
  type RunningTask,
  type TaskCallOptions,
} from './tasks.js';
import type { FeatureOptions } from './types.js';
import {
  TASKS_EXTENSION_ID,
  callToolMaybeAsTask,
  offersTasksExtension,
  type ModernTaskClient,
} from './modern-tasks.js';

export type { FeatureOptions, SamplingPort, ServerLogMessage } from './types.js';
export type { RunningTask } from './tasks.js';

export class ClientFeatures {
  readonly tasks = new TaskRegistry();
  readonly subscriptions = new ResourceSubscriptions();
  private readonly stores = new WeakMap<Client, ClientTaskStore>();

  constructor(
    private readonly o: FeatureOptions,
    private readonly clock: Clock,
  ) {}

  get tasksEnabled(): boolean {
    return this.o.tasks !== false;
  }

  capabilities(base: ClientCapabilities): ClientCapabilities {
    const caps: ClientCapabilities = { ...base };
    // Tool use in sampling (2025-11-25) is served: the editor's model port maps tools both ways.
    if (this.o.sampling) caps.sampling = { tools: {} };
    if (this.tasksEnabled) {
      caps.tasks = tasksCapability(this.o.sampling !== undefined);
      // 2026-07-28: tasks are an extension, declared in every request's capabilities.
      caps.extensions = { ...caps.extensions, [TASKS_EXTENSION_ID]: {} };
    }
    return caps;
  }

  /**
   * `relate` says which requests a server's question may belong to (connection/in-flight.ts).
   * Returns the client's task store (a server may poll our client tasks), when tasks are on.
   */
  setup(
    server: string,
    client: Client,
    log: Logger,
    relate?: (meta: Record<string, unknown> | undefined) => RelatedCalls,
  ): ClientTaskStore | undefined {
    const store = this.tasksEnabled ? new ClientTaskStore() : undefined;
    if (store) {
      store.install(client);
      this.stores.set(client, store);
    }
    installLogging(client, log, this.o.onServerLog && ((m) => this.o.onServerLog!(server, m)));
    this.subscriptions.install(server, client, log);
    const sampling = this.o.sampling;
    if (sampling) {
      client.setRequestHandler('sampling/createMessage', (req, ctx) => {
        log.info(`sampling request (${req.params.messages.length} messages, up to ${req.params.maxTokens} tokens)`);
        const related = relate?.(req.params._meta);
        return answerMaybeAsTask(
          req.params,
          store,
          () => sampling.createMessage(server, req.params, ctx.mcpReq.signal, related),
          log,
        ) as never;
      });
    }
    return store;
  }

  /** After initialize and the lists: returns what must stop when the connection goes (its plugin disposes it with the launch). */
  connected(server: string, client: Client, log: Logger, onUnresponsive: (message: string) => void): Disposable {
    void applyLogLevel(client, this.o.logLevel?.(server), log);
    void this.subscriptions.resubscribe(server, client, log);
    const ping = this.o.pingIntervalMs
      ? startPinging(client, this.o.pingIntervalMs, this.clock, log, onUnresponsive)
      : undefined;
    return {
      dispose: () => {
        ping?.dispose();
        // The store's TTL timers would otherwise keep a CLI process alive.
        this.stores.get(client)?.cleanup();
      },
    };
  }

  /** Whether `callTool` makes a plain request of this call: no task on either era. */
  isPlainCall(client: Client, tool: HostTool): boolean {
    return !this.tasksEnabled || (!offersTasksExtension(client) && !runsAsTask(client, tool));
  }

  /** Calls a tool, as a task when the tool and server allow it (status reported through `onTaskStatus`). */
  callTool(
    server: string,
    client: Client,
    tool: HostTool,
    args: Record<string, unknown>,
    opts: CallToolRequestOptions,
    log: Logger,
    onTaskStatus?: (t: RunningTask) => void,
  ): Promise<CallToolResult> {
    const params = { name: tool.name, arguments: args };
    if (!this.tasksEnabled) return client.callTool(params, opts) as Promise<CallToolResult>;
    // Made only for the task paths: a plain call is most calls.
    const taskOptions = (): TaskCallOptions => ({
      server,
      registry: this.tasks,
      log,
      now: () => this.clock.now(),
      ...(onTaskStatus ? { onStatus: onTaskStatus } : {}),
    });
    // The server decides per call; HostClient is what reads a task answer (host-client.ts).
    if (offersTasksExtension(client) && 'answerInputRequest' in client)
      return callToolMaybeAsTask(client as ModernTaskClient, params, opts, taskOptions());
    if (runsAsTask(client, tool)) return callToolAsTask(client, params, opts, taskOptions());
    return client.callTool(params, opts) as Promise<CallToolResult>;
  }
}

// Used by the editor and the CLI, which import only this module (scripts/lib/import-layers.mjs).
export { completeArgument, type CompletionRef } from './completions.js';
export { applyLogLevel, formatLogMessage, LOGGING_LEVELS } from './logging.js';
export {
  consentEntryName,
  samplingConsentStatus,
  withoutSamplingConsent,
  // sampling.ts has a withSamplingConsent of its own (the port wrapper); this one adds a consent entry.
  withSamplingConsent as withSamplingConsentEntry,
} from './sampling-consent.js';
export {
  type ConsentAnswer,
  type ManualSamplingReply,
  NO_MODEL,
  pickModel,
  type SamplingConsentPrompt,
  type SamplingConsentStore,
  withSamplingConsent,
} from './sampling.js';
export { ResourceSubscriptions } from './subscriptions.js';
