/**
 * The tasks a server asked this host to run (2025-11-25: a task-augmented `elicitation/create` or
 * `sampling/createMessage`), kept per connection and served back to the server through `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel`. SDK v2 no longer carries a task store, and the
 * 2026-07-28 era has no such requests, so this only ever answers legacy connections.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod/v4';
import type { Client, Result } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';
import type { TaskAnswerStore, TaskStatus } from './tasks.js';

interface StoredTask {
  task: {
    taskId: string;
    status: TaskStatus;
    ttl: number | null;
    createdAt: string;
    lastUpdatedAt: string;
    pollInterval?: number;
    statusMessage?: string;
  };
  result?: Result;
  settled: Promise<void>;
  settle(): void;
  expiry?: ReturnType<typeof setTimeout>;
}

const TaskIdParams = z.looseObject({ taskId: z.string() });
const ListParams = z.looseObject({ cursor: z.string().optional() });

export class ClientTaskStore implements TaskAnswerStore {
  private readonly tasks = new Map<string, StoredTask>();

  createTask(o: { ttl?: number | null; pollInterval?: number }): StoredTask['task'] {
    const now = new Date().toISOString();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const entry: StoredTask = {
      task: {
        taskId: randomBytes(16).toString('hex'),
        status: 'working',
        ttl: o.ttl ?? null,
        createdAt: now,
        lastUpdatedAt: now,
        ...(o.pollInterval !== undefined ? { pollInterval: o.pollInterval } : {}),
      },
      settled,
      settle,
    };
    this.tasks.set(entry.task.taskId, entry);
    this.expireLater(entry);
    return { ...entry.task };
  }

  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): void {
    const entry = this.tasks.get(taskId);
    // A task the server cancelled (or that expired) keeps its end.
    if (!entry || entry.task.status === 'cancelled') return;
    entry.task = { ...entry.task, status, lastUpdatedAt: new Date().toISOString() };
    entry.result = result;
    entry.settle();
    this.expireLater(entry);
  }

  /** Answers the server's task requests on `client`; only a legacy (2025-11-25) server sends them. */
  install(client: Client): void {
    client.setRequestHandler('tasks/get', { params: TaskIdParams }, (p) => ({ ...this.get(p.taskId).task }));
    client.setRequestHandler('tasks/result', { params: TaskIdParams }, async (p) => {
      const entry = this.get(p.taskId);
      await entry.settled;
      const result = entry.result ?? {};
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: p.taskId } } };
    });
    client.setRequestHandler('tasks/list', { params: ListParams }, () => ({
      tasks: [...this.tasks.values()].map((e) => ({ ...e.task })),
    }));
    client.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (p) => {
      const entry = this.get(p.taskId);
      if (entry.task.status !== 'working' && entry.task.status !== 'input_required')
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${p.taskId} has already ended`);
      entry.task = { ...entry.task, status: 'cancelled', lastUpdatedAt: new Date().toISOString() };
      entry.settle();
      return { ...entry.task };
    });
  }

  /** Stops the expiry timers, which would otherwise keep a CLI process alive. */
  cleanup(): void {
    for (const e of this.tasks.values()) clearTimeout(e.expiry);
    this.tasks.clear();
  }

  private get(taskId: string): StoredTask {
    const entry = this.tasks.get(taskId);
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return entry;
  }

  private expireLater(entry: StoredTask): void {
    clearTimeout(entry.expiry);
    if (entry.task.ttl === null) return;
    entry.expiry = setTimeout(() => this.tasks.delete(entry.task.taskId), entry.task.ttl);
    entry.expiry.unref?.();
  }
}
