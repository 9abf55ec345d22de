/**
 * Tasks (2025-11-25, SEP-1686) on both sides of the connection:
 * - a tool whose `execution.taskSupport` allows it runs as a task (`tools/call` with `task`, then
 *   `tasks/get` polls, then `tasks/result`); the running ones are listed in a `TaskRegistry`, and
 *   cancelling sends `tasks/cancel`;
 * - a server's task-augmented `elicitation/create` or `sampling/createMessage` is answered with a
 *   task of ours (a `ClientTaskStore`, client-task-store.ts, serves `tasks/get`/`tasks/result`).
 * SDK v2 dropped its experimental task layer (SEP-2663), so the 2025-11-25 wire is spoken here
 * with the SDK's deprecated task schemas, on legacy connections only.
 */
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
} from '@modelcontextprotocol/core';
import type {
  Client,
  RequestOptions,
  CallToolResult,
  ClientCapabilities,
  Result,
  Tool,
} from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
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
      await client.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema);
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
    const report = (task: { taskId: string; status: TaskStatus; statusMessage?: string }): void => {
      const t: RunningTask = {
        server: o.server,
        tool: params.name,
        taskId: task.taskId,
        status: task.status,
        startedAt,
        ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
      };
      if (t.status === 'working' || t.status === 'input_required') o.registry.set(t, cancel);
      o.onStatus?.(t);
    };
    const fail = (message: string): never => {
      if (cancelledHere) throw new HostError('cancelled', `${params.name} was cancelled (task ${taskId})`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    };
    // Each poll gets the request options' own timeout, not the whole task.
    const created = await client.request(
      { method: 'tools/call', params: { ...params, task: {} } },
      CreateTaskResultSchema,
      opts,
    );
    taskId = created.task.taskId;
    startedAt = o.now();
    o.log.info(`tool ${params.name} runs as task ${taskId}`);
    report(created.task);
    for (;;) {
      const task = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema, opts);
      report(task);
      // `input_required`: tasks/result carries the server's questions to us and blocks until the end.
      if (task.status === 'completed' || task.status === 'input_required') {
        return (await client.request(
          { method: 'tasks/result', params: { taskId } },
          CallToolResultSchema,
          opts,
        )) as CallToolResult;
      }
      if (task.status === 'failed') fail(`Task ${taskId} failed`);
      if (task.status === 'cancelled') fail(`Task ${taskId} was cancelled`);
      await waitFor(task.pollInterval ?? 1000, opts.signal);
      opts.signal?.throwIfAborted();
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    // The call ends only once the server heard the cancel, so a retry never races the old task.
    if (opts.signal?.aborted) await (cancelling ??= cancel());
    if (taskId) o.registry.delete(taskId);
  }
}

/** Waits `ms` between polls; an abort ends the wait at once. */
export function waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The part of a client task store `answerMaybeAsTask` needs (client-task-store.ts). */
export interface TaskAnswerStore {
  createTask(o: { ttl?: number | null; pollInterval?: number }): { taskId: string };
  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): void;
}
/**
 * Answers a server's request: directly, or (when it asked for a task and a store is there) with a
 * task whose result is stored when `work` settles. A failure becomes a failed task carrying the message.
 */
export async function answerMaybeAsTask<R extends Result>(
  params: { task?: { ttl?: number } } | undefined,
  store: TaskAnswerStore | undefined,
  work: () => Promise<R>,
  log: Logger,
): Promise<R | { task: unknown }> {
  if (!params?.task || !store) return work();
  const task = store.createTask({ ttl: params.task.ttl ?? 60_000, pollInterval: 500 });
  void work()
    .then(
      (result) => store.storeTaskResult(task.taskId, 'completed', result),
      (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        log.warn(`client task ${task.taskId} failed: ${message}`);
        store.storeTaskResult(task.taskId, 'failed', {
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
