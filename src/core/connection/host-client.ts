/**
 * The SDK Client with one 2025-11-25 behaviour SDK v2 dropped: a server may ask for the answer to
 * `elicitation/create` or `sampling/createMessage` as a task (`params.task`), and the answer is then
 * a `CreateTaskResult`, which v2's own result check (it knows only the direct answer) refuses.
 * And one 2026-07-28 behaviour it leaves to the host: the log level the user picked travels in
 * every request's `_meta` (there is no `logging/setLevel`; without the key a server logs nothing).
 * Everything else goes through the SDK's checks unchanged.
 */
import { Client, isTaskAugmentedRequestParams } from '@modelcontextprotocol/client';
import type { ClientContext, JSONRPCRequest, LoggingLevel, Result } from '@modelcontextprotocol/client';
import { CreateTaskResultSchema } from '@modelcontextprotocol/core';

type Handler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

export class HostClient extends Client {
  /** Sent with each request on a modern connection (features/logging.ts applyLogLevel). */
  logLevel: LoggingLevel | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    return envelope && this.logLevel ? { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel } : envelope;
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
