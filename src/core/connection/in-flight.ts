/**
 * Which caller a server's own request (elicitation, sampling) belongs to. MCP ties such a request
 * to the client request it serves in two ways only: Streamable HTTP sends it on that request's
 * response stream, and a task-augmented call names its task in
 * `_meta["io.modelcontextprotocol/related-task"]`. Over stdio and the old SSE transport there is
 * no link on the wire.
 *
 * The SDK client does not say which stream a message came on, but it reads a POST's response
 * stream in the async context of the send, so a request run inside `run()` finds its caller again
 * in the handler of a question that arrived on its stream (AsyncLocalStorage); an in-process
 * server's questions keep that context too. For the rest, each server keeps the callers of the
 * requests in flight on it: when a question comes in, those are the only ones it can belong to.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import type { Disposable } from '../ports.js';

export type { CallOrigin, RelatedCalls } from '../host-data.js';
import type { CallOrigin, RelatedCalls } from '../host-data.js';

/** The request whose work is running now: set around the SDK call, read in a question's handler. */
const current = new AsyncLocalStorage<InFlightCall>();

/** One request in flight on a server: recorded from `begin` until `dispose`. */
export class InFlightCall implements Disposable {
  /** The tasks this request runs as; created on the first (most calls are not tasks). */
  tasks?: Set<string>;

  constructor(
    private readonly calls: InFlightCalls,
    readonly origin: CallOrigin | undefined,
  ) {}

  /**
   * Runs the request's work, `fn(arg)`: messages that arrive on its response stream are handled
   * in this context. Must not wrap connecting: a transport opened here would hand every later
   * message this context.
   */
  run<A, T>(fn: (arg: A) => Promise<T>, arg: A, streamLinked: boolean): Promise<T> {
    // Only an agent's request needs its context found again: a question in the editor's own call
    // is the editor's anyway (no owner, or an ambiguous one, goes to the editor). And only where
    // the transport links a question to its request (`streamLinked`: Streamable HTTP, in process):
    // over stdio, SSE and WebSocket the context would never be read. On Node 20 the first
    // AsyncLocalStorage.run turns on a promise hook for the whole process (every promise pays for
    // it: in-process call p50 1.13 -> 1.49 of the bare SDK; `mcp-host serve` relaying to a stdio
    // server 2,556 -> 3,365 calls/s without it), so a host that never needs it never turns it on.
    return this.origin === undefined || !streamLinked ? fn(arg) : current.run(this, fn, arg);
  }

  dispose(): void {
    this.calls.end(this);
  }
}

export class InFlightCalls {
  private readonly entries: InFlightCall[] = [];

  /** Records a request of `origin` until the returned call is disposed. */
  begin(origin: CallOrigin | undefined): InFlightCall {
    const call = new InFlightCall(this, origin);
    this.entries.push(call);
    return call;
  }

  end(call: InFlightCall): void {
    const i = this.entries.indexOf(call);
    if (i >= 0) this.entries.splice(i, 1);
  }

  /** A request of `origin` runs as task `taskId` (the server created it): questions naming it are that request's. */
  tagTask(origin: CallOrigin | undefined, taskId: string): void {
    const entry = this.entries.find((e) => e.origin === origin);
    if (entry) (entry.tasks ??= new Set()).add(taskId);
  }

  /** The requests a server's question with this `_meta` may belong to. */
  relatedTo(meta: Record<string, unknown> | undefined): RelatedCalls {
    const callers = this.entries.map((e) => e.origin);
    const taskId = (meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
    const byTask = typeof taskId === 'string' ? this.entries.find((e) => e.tasks?.has(taskId)) : undefined;
    if (byTask) return { callers, owner: { origin: byTask.origin, via: 'task' } };
    // Only a context of this server's requests counts, and only while that request is in flight.
    const ctx = current.getStore();
    if (ctx && this.entries.includes(ctx)) return { callers, owner: { origin: ctx.origin, via: 'stream' } };
    return { callers };
  }
}
