/**
 * Argument completion (`completion/complete`) for prompt arguments and resource-template
 * variables; `context.arguments` carries the values already given so a server can narrow down.
 */
import type { Client } from '@modelcontextprotocol/client';

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export function supportsCompletions(client: Client): boolean {
  return client.getServerCapabilities()?.completions !== undefined;
}

/** Asks the server; a server without the capability yields no suggestions (not an error). */
export async function completeArgument(
  client: Client,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context: Record<string, string> | undefined,
  opts: { timeout?: number; signal?: AbortSignal } = {},
): Promise<CompletionResult> {
  if (!supportsCompletions(client)) return { values: [] };
  const r = await client.complete(
    { ref, argument, ...(context && Object.keys(context).length ? { context: { arguments: context } } : {}) },
    opts,
  );
  const c = r.completion;
  // The spec caps a response at 100 values; a server sending more must not flood a picker.
  return {
    values: c.values.slice(0, 100),
    ...(c.total !== undefined ? { total: c.total } : {}),
    ...(c.hasMore !== undefined ? { hasMore: c.hasMore } : {}),
  };
}
