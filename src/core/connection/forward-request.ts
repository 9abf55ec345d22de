/**
 * `resources/read` and `prompts/get` for the gateway (McpHost.forwardResourceRead, forwardPrompt):
 * the server's wire result, not the host's shape (blobs moved to files) the gateway would turn
 * back. With `asFrame` on a 2025-11-25 connection the request goes as a frame of its own
 * (frame-channel.ts) and the result comes as it was sent, the agent's own client checking it; else
 * the SDK client's request, its result parsed as the SDK parses it. A 2026-07-28 connection keeps
 * the SDK's path (its envelope, and cache hints on reads: cache-hints.ts).
 */
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { CallOptions } from '../host-api.js';
import type { LiveConnection } from './connect.js';
import { HostError } from './errors.js';
import { requestOptions } from './requests.js';

type Forwarded = 'resources/read' | 'prompts/get';

function asResult(method: Forwarded, r: unknown, list: 'contents' | 'messages'): Record<string, unknown> {
  const ok = typeof r === 'object' && r !== null && Array.isArray((r as Record<string, unknown>)[list]);
  if (!ok)
    throw new HostError(
      'server-error',
      `the server answered ${method} with ${String(JSON.stringify(r)).slice(0, 200)}, not a result with ${list}`,
    );
  return r as Record<string, unknown>;
}

async function framed(
  conn: LiveConnection,
  method: Forwarded,
  params: Record<string, unknown>,
  opts: CallOptions | undefined,
  defaultTimeoutMs: number,
): Promise<unknown> {
  const o = requestOptions(opts, defaultTimeoutMs);
  const onprogress = o.onprogress;
  return conn.frames!.request(method, params, {
    timeoutMs: o.timeout,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(onprogress ? { onProgress: (p) => onprogress(p as unknown as Parameters<typeof onprogress>[0]) } : {}),
  });
}

function asFrame(conn: LiveConnection, opts: CallOptions | undefined): boolean {
  return opts?.asFrame === true && conn.frames !== undefined && conn.client.getProtocolEra() !== 'modern';
}

export async function forwardResourceRead(
  conn: LiveConnection,
  uri: string,
  opts: CallOptions | undefined,
  defaultTimeoutMs: number,
): Promise<ReadResourceResult> {
  if (asFrame(conn, opts))
    return asResult(
      'resources/read',
      await framed(conn, 'resources/read', { uri }, opts, defaultTimeoutMs),
      'contents',
    ) as ReadResourceResult;
  return conn.client.readResource({ uri }, requestOptions(opts, defaultTimeoutMs));
}

export async function forwardPrompt(
  conn: LiveConnection,
  name: string,
  args: Record<string, string>,
  opts: CallOptions | undefined,
  defaultTimeoutMs: number,
): Promise<GetPromptResult> {
  const params = { name, arguments: args };
  if (asFrame(conn, opts))
    return asResult(
      'prompts/get',
      await framed(conn, 'prompts/get', params, opts, defaultTimeoutMs),
      'messages',
    ) as GetPromptResult;
  return conn.client.getPrompt(params, requestOptions(opts, defaultTimeoutMs));
}
