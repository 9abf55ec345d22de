/**
 * The SDK Client with one 2025-11-25 behaviour SDK v2 dropped: a server may ask for the answer to
 * `elicitation/create` or `sampling/createMessage` as a task (`params.task`), and the answer is then
 * a `CreateTaskResult`, which v2's own result check (it knows only the direct answer) refuses.
 * Everything else goes through the SDK's checks unchanged.
 */
import { Client, isTaskAugmentedRequestParams } from '@modelcontextprotocol/client';
import type { ClientContext, JSONRPCRequest, Result } from '@modelcontextprotocol/client';
import { CreateTaskResultSchema } from '@modelcontextprotocol/core';

type Handler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

export class HostClient extends Client {
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
