/** Builds the transport for one server definition. Everything protocol-level is the SDK's. */
import { SSEClientTransport, StreamableHTTPClientTransport, InMemoryTransport } from '@modelcontextprotocol/client';
import type { Transport, OAuthClientProvider } from '@modelcontextprotocol/client';
import { authFetchFor } from '../auth/index.js';
import type { ServerConfig } from '../config/types.js';
import type { Logger } from '../ports.js';
import { assertNever } from './state.js';
import { withRequestSignal } from './fetch-signal.js';
import { StdioProcessTransport } from './stdio-transport.js';
import { WebSocketClientTransport } from './ws-transport.js';
import type { SandboxSpawn } from '../sandbox/spawn.js';

export interface TransportContext {
  logger: Logger;
  authProvider?: OAuthClientProvider;
  /** Wraps the HTTP transports' fetch (a headersHelper's headers, headers-helper.ts). */
  wrapFetch?: (f: FetchLike | undefined) => FetchLike;
  /** stdio under the sandbox (src/core/sandbox/spawn.ts). */
  sandbox?: SandboxSpawn;
  /** What a stdio server's environment starts from (StdioTransportOptions.baseEnv). */
  baseEnv?: Record<string, string>;
}

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

function fetchFor(ctx: TransportContext): FetchLike {
  const f = authFetchFor(ctx.authProvider);
  return withRequestSignal(ctx.wrapFetch ? ctx.wrapFetch(f) : f);
}

export interface CreatedTransport {
  transport: Transport;
  /** Set for stdio: the process, its exit and stderr. */
  stdio?: StdioProcessTransport;
  /** Must run after the client has attached its callbacks but before `connect` (in-process only). */
  beforeConnect?: () => Promise<void>;
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new Error(`invalid server URL: ${url}`);
  }
}

export function createTransport(config: ServerConfig, ctx: TransportContext): CreatedTransport {
  switch (config.type) {
    case 'stdio': {
      const t = new StdioProcessTransport({
        command: config.command,
        args: config.args,
        env: config.env,
        cwd: config.cwd,
        logger: ctx.sandbox?.logger ?? ctx.logger,
        ...(ctx.sandbox ? { prepareSpawn: ctx.sandbox.prepareSpawn } : {}),
        ...(ctx.baseEnv ? { baseEnv: ctx.baseEnv } : {}),
      });
      return { transport: t, stdio: t };
    }
    case 'sse':
      // Headers go on the POSTs (requestInit) and on the SSE GET (the SDK merges requestInit headers
      // into its EventSource fetch). The GET has no timeout: it is meant to stay open.
      return {
        transport: new SSEClientTransport(parseUrl(config.url), {
          requestInit: { headers: config.headers ?? {} },
          authProvider: ctx.authProvider,
          // Normalises token responses and notices 403 insufficient_scope (src/core/auth/oauth-fetch.ts).
          fetch: fetchFor(ctx),
        }),
      };
    case 'http':
      return {
        transport: new StreamableHTTPClientTransport(parseUrl(config.url), {
          requestInit: { headers: config.headers ?? {} },
          authProvider: ctx.authProvider,
          // Normalises token responses and notices 403 insufficient_scope (src/core/auth/oauth-fetch.ts).
          fetch: fetchFor(ctx),
        }),
      };
    case 'ws':
      return {
        transport: new WebSocketClientTransport(parseUrl(config.url), {
          headers: config.headers,
          authProvider: ctx.authProvider,
        }),
      };
    case 'inprocess': {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      return { transport: clientSide, beforeConnect: () => config.start(serverSide) };
    }
    default:
      return assertNever(config);
  }
}
