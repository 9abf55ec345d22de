/**
 * Tasks (2025-11-25, SEP-1686) on both sides of the connection:
 * - a tool whose `execution.taskSupport` allows it runs as a task through the SDK's experimental
 *   task client (`callToolStream`: `tools/call` with `task`, then `tasks/get` polls, then
 *   `tasks/result`); the running ones are listed in a `TaskRegistry`, and cancelling sends `tasks/cancel`;
 * - a server's task-augmented `elicitation/create` or `sampling/createMessage` is answered with a
 *   task of ours (the SDK's in-memory task store serves `tasks/get`/`tasks/result` to the server).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolResultSchema,
  type CallToolResult,
  type ClientCapabilities,
  type Result,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { HostError } from '../errors.js';
import { Emitter } from '../events.js';
import type { Logger } from '../ports.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A tool call running as a task on a server, as the running-tasks view shows it. */
export interface RunningTask {
  server: string;
  tool: string;
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  startedAt: number;
}

/** The capability the host declares: list/cancel, and elicitation/sampling answered as tasks. */
export function tasksCapability(sampling: boolean): NonNullable<ClientCapabilities['tasks']> {
  return {
    list: {},
    cancel: {},
    requests: { elicitation: { create: {} }, ...(sampling ? { sampling: { createMessage: {} } } : {}) },
  };
}

/** Whether a call of `tool` should run as a task: the tool allows it and the server can. */
export function runsAsTask(client: Client, tool: Pick<Tool, 'execution'> | { taskSupport?: string }): boolean {
  const support = 'taskSupport' in tool ? tool.taskSupport : (tool as Tool).execution?.taskSupport;
  if (support !== 'required' && support !== 'optional') return false;
  return client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/** The tasks this host runs on servers right now. */
export class TaskRegistry {
  private readonly running = new Map<string, { task: RunningTask; cancel: () => Promise<void> }>();
  private readonly emitter = new Emitter<void>();
  readonly onDidChange = this.emitter.event;

  list(): RunningTask[] {
    return [...this.running.values()].map((r) => r.task);
  }

  /** Sends `tasks/cancel` for a running task; false when it is not (or no longer) running. */
  async cancel(taskId: string): Promise<boolean> {
    const r = this.running.get(taskId);
    if (!r) return false;
    await r.cancel();
    return true;
  }

  set(task: RunningTask, cancel: () => Promise<void>): void {
    this.running.set(task.taskId, { task, cancel });
    this.emitter.fire();
  }

  delete(taskId: string): void {
    if (this.running.delete(taskId)) this.emitter.fire();
  }
}

export interface TaskCallOptions {
  server: string;
  registry: TaskRegistry;
  log: Logger;
  now(): number;
  onStatus?(t: RunningTask): void;
}

/**
 * Calls a tool as a task. Aborting the request options' signal (the user's Cancel) sends
 * `tasks/cancel` once the task exists, so the server stops the work rather than just being forgotten.
 */
export async function callToolAsTask(
  client: Client,
  params: { name: string; arguments: Record<string, unknown> },
  opts: RequestOptions,
  o: TaskCallOptions,
): Promise<CallToolResult> {
  let taskId: string | undefined;
  /** Cancelled by this host (the running-tasks list or the call's signal): the end is a cancellation, not a failure. */
  let cancelledHere = false;
  const cancel = async (): Promise<void> => {
    if (!taskId) return;
    cancelledHere = true;
    try {
      await client.experimental.tasks.cancelTask(taskId);
      o.log.info(`task ${taskId} (${params.name}) cancelled`);
    } catch (err) {
      o.log.warn(`tasks/cancel ${taskId} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  let cancelling: Promise<void> | undefined;
  const onAbort = (): void => {
    cancelling ??= cancel();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let startedAt = o.now();
  try {
    // The stream polls with the request options; its own timeout applies to each poll, not the whole task.
    for await (const m of client.experimental.tasks.callToolStream(params, CallToolResultSchema, {
      ...opts,
      task: {},
    })) {
      if (m.type === 'taskCreated' || m.type === 'taskStatus') {
        if (m.type === 'taskCreated') {
          taskId = m.task.taskId;
          startedAt = o.now();
          o.log.info(`tool ${params.name} runs as task ${taskId}`);
        }
        const t: RunningTask = {
          server: o.server,
          tool: params.name,
          taskId: m.task.taskId,
          status: m.task.status,
          startedAt,
          ...(m.task.statusMessage ? { statusMessage: m.task.statusMessage } : {}),
        };
        if (t.status === 'working' || t.status === 'input_required') o.registry.set(t, cancel);
        o.onStatus?.(t);
      } else if (m.type === 'result') {
        return m.result as CallToolResult;
      } else {
        if (cancelledHere)
          throw new HostError('cancelled', `${params.name} was cancelled (task ${taskId})`, undefined, {
            cause: m.error,
          });
        throw m.error;
      }
    }
    throw new Error(`task for ${params.name} ended without a result`);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    // The call ends only once the server heard the cancel, so a retry never races the old task.
    if (opts.signal?.aborted) await (cancelling ??= cancel());
    if (taskId) o.registry.delete(taskId);
  }
}

interface TaskExtra {
  taskStore?: {
    createTask(o: { ttl?: number | null; pollInterval?: number }): Promise<{ taskId: string }>;
    storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void>;
    updateTaskStatus(taskId: string, status: TaskStatus, statusMessage?: string): Promise<void>;
  };
}

/**
 * Answers a server's request: directly, or (when it asked for a task and a store is there) with a
 * task whose result is stored when `work` settles. A failure becomes a failed task carrying the message.
 */
export async function answerMaybeAsTask<R extends Result>(
  params: { task?: { ttl?: number } } | undefined,
  extra: TaskExtra,
  work: () => Promise<R>,
  log: Logger,
): Promise<R | { task: unknown }> {
  const store = extra.taskStore;
  if (!params?.task || !store) return work();
  const task = await store.createTask({ ttl: params.task.ttl ?? 60_000, pollInterval: 500 });
  void work()
    .then(
      (result) => store.storeTaskResult(task.taskId, 'completed', result),
      async (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        log.warn(`client task ${task.taskId} failed: ${message}`);
        await store.storeTaskResult(task.taskId, 'failed', {
          content: [{ type: 'text', text: message }],
          isError: true,
        });
      },
    )
    .catch((err: unknown) =>
      log.warn(
        `could not store the result of task ${task.taskId}: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
  return { task };
}
