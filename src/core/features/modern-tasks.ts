/**
 * Tasks as the official extension of 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663), beside
 * the 2025-11-25 tasks of tasks.ts. The client declares the extension and the server decides per
 * call: a `tools/call` may answer `resultType: "task"` instead of its result. The task is then
 * polled with `tasks/get` (which carries the result once done, or `inputRequests` while it waits
 * for the user), answered with `tasks/update`, and cancelled with `tasks/cancel`. Status goes to
 * the same TaskRegistry and `onStatus` as a legacy task, so the tree and palette show both alike.
 *
 * Written here rather than taken from `@modelcontextprotocol/ext-tasks` (0.2): its 2026-07-28 path
 * needs the host to hand it a raw dispatcher and the per-request framing, i.e. to re-plumb the SDK
 * client around it, for three small requests.
 */
import type { CallToolResult, Client, RequestOptions, Result } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import * as z from 'zod/v4';
import { HostError } from '../errors.js';
import { waitFor, type RunningTask, type TaskCallOptions, type TaskStatus } from './tasks.js';

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';
/** Where HostClient puts a task handle it received in place of a tool result (host-client.ts). */
export const HOST_TASK_META_KEY = 'mcp-host/task';

const Status = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const InputRequest = z.looseObject({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() });
export type TaskInputRequest = z.infer<typeof InputRequest>;

const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: Status,
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().optional(),
  inputRequests: z.record(z.string(), InputRequest).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }).optional(),
});
type ModernTask = z.infer<typeof TaskSchema>;
const EmptySchema = z.looseObject({});

/** The task of a `resultType: "task"` result, or undefined for any other result. */
export function asTaskHandle(result: unknown): (ModernTask & { _meta?: unknown }) | undefined {
  if (!result || typeof result !== 'object' || (result as { resultType?: unknown }).resultType !== 'task') return;
  const parsed = TaskSchema.safeParse(result);
  return parsed.success ? (parsed.data as ModernTask & { _meta?: unknown }) : undefined;
}

/** Whether this connection speaks the extension: a 2026-07-28 server that declares it. */
export function offersTasksExtension(client: Client): boolean {
  if (client.getProtocolEra() !== 'modern') return false;
  const ext = (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return ext?.[TASKS_EXTENSION_ID] !== undefined;
}

export interface ModernTaskClient extends Client {
  answerInputRequest(key: string, entry: TaskInputRequest, signal: AbortSignal): Promise<Result>;
}

/**
 * The end a task's status says: its result once completed, a failure or a cancellation (ours:
 * `cancelled`; the server's own: an error) as an error; undefined while it still runs.
 */
function endOf(task: ModernTask, tool: string, cancelledByUs: boolean): CallToolResult | undefined {
  if (task.status === 'completed') return CallToolResultSchema.parse(task.result ?? {}) as CallToolResult;
  if (task.status === 'failed')
    throw new ProtocolError(
      task.error?.code ?? ProtocolErrorCode.InternalError,
      task.error?.message ?? task.statusMessage ?? `Task ${task.taskId} failed`,
    );
  if (task.status === 'cancelled') {
    if (cancelledByUs) throw new HostError('cancelled', `${tool} was cancelled (task ${task.taskId})`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Task ${task.taskId} was cancelled by the server`);
  }
  return undefined;
}

/**
 * Calls a tool that the server may turn into a task. The user's Cancel (the signal) or the
 * running-tasks list sends `tasks/cancel`; the call then ends as a cancellation.
 */
export async function callToolMaybeAsTask(
  client: ModernTaskClient,
  params: { name: string; arguments: Record<string, unknown> },
  opts: RequestOptions,
  o: TaskCallOptions,
): Promise<CallToolResult> {
  const first = (await client.callTool(params, opts)) as CallToolResult;
  const handle = first._meta?.[HOST_TASK_META_KEY];
  if (!handle) return first;
  let task = TaskSchema.parse(handle);
  const taskId = task.taskId;
  const startedAt = o.now();
  let cancelledHere = false;
  const cancel = async (): Promise<void> => {
    if (cancelledHere) return;
    cancelledHere = true;
    try {
      await client.request({ method: 'tasks/cancel', params: { taskId } }, EmptySchema);
      o.log.info(`task ${taskId} (${params.name}) cancelled`);
    } catch (err) {
      o.log.warn(`tasks/cancel ${taskId} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  /** Keys already answered: a poll repeats a question until the server has taken the answer. */
  const answered = new Set<string>();
  o.log.info(`tool ${params.name} runs as task ${taskId} (tasks extension)`);
  try {
    for (;;) {
      report(task);
      const result = endOf(task, params.name, cancelledHere || stop.signal.aborted);
      if (result) return result;
      if (task.status === 'input_required') await answer(task.inputRequests ?? {});
      await waitFor(task.pollIntervalMs ?? 1000, stop.signal);
      if (stop.signal.aborted || cancelledHere) {
        await cancel();
        throw new HostError('cancelled', `${params.name} was cancelled (task ${taskId})`);
      }
      const got = await client.request({ method: 'tasks/get', params: { taskId } }, TaskSchema, opts);
      task = got;
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    // Aborted while a request was in flight: the server still hears the cancel.
    if (stop.signal.aborted) await cancel();
    o.registry.delete(taskId);
  }

  function report(t: ModernTask): void {
    const r: RunningTask = {
      server: o.server,
      tool: params.name,
      taskId,
      status: t.status as TaskStatus,
      startedAt,
      ...(t.statusMessage ? { statusMessage: t.statusMessage } : {}),
    };
    if (r.status === 'working' || r.status === 'input_required')
      o.registry.set(r, async () => {
        await cancel();
        stop.abort();
      });
    o.onStatus?.(r);
  }

  async function answer(requests: Record<string, TaskInputRequest>): Promise<void> {
    const fresh = Object.entries(requests).filter(([key]) => !answered.has(key));
    if (!fresh.length) return;
    for (const [key] of fresh) answered.add(key);
    const inputResponses = Object.fromEntries(
      await Promise.all(
        fresh.map(async ([key, entry]) => [key, await client.answerInputRequest(key, entry, stop.signal)] as const),
      ),
    );
    await client.request({ method: 'tasks/update', params: { taskId, inputResponses } }, EmptySchema, opts);
  }
}
