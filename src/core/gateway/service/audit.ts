/**
 * The team gateway's audit log: one JSON line per upstream call (tool, resource read, prompt) with
 * who made it (the token's `sub`), the server and what was called, the outcome and the duration.
 * Arguments and results are not written (they carry people's data); an error message is, through
 * the one redactor. The caller is known from the HTTP request the call runs under
 * (AsyncLocalStorage), so the gateway itself needs no notion of people.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { McpHost } from '../../host.js';
import { redactString } from '../../redact.js';

export interface AuditRecord {
  time: string;
  sub: string | null;
  server: string;
  kind: 'tool' | 'resource' | 'prompt';
  /** The tool or prompt name, or the resource URI, as the server knows it. */
  name: string;
  /** `rate-limited`: refused before it reached a server (`server` empty, `name` as the agent gave it). */
  outcome: 'ok' | 'tool-error' | 'failed' | 'rate-limited';
  durationMs: number;
  error?: string;
}

/**
 * Who the code running now acts for (set per HTTP request by the service), with the access token
 * the request carried: what a per-user upstream's exchange is made with (upstream-pool.ts). Memory
 * only, for the request's life; never written.
 */
export const currentCaller = new AsyncLocalStorage<{ sub: string; accessToken?: string }>();

export class AuditLog {
  private readonly out: WriteStream;

  constructor(file: string) {
    // Appended, never truncated: a restart must not lose the last process's lines. 0600: it names people.
    this.out = createWriteStream(file, { flags: 'a', mode: 0o600 });
    this.out.on('error', () => undefined);
  }

  write(r: AuditRecord): void {
    this.out.write(`${JSON.stringify(r)}\n`);
  }

  /** Resolves once every line written so far is in the file. */
  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(() => resolve()));
  }
}

/**
 * `host` with its upstream calls recorded in `log`. A proxy, so everything else the gateway uses
 * of the host is the host's own.
 */
export function auditedHost(host: McpHost, log: AuditLog): McpHost {
  const timed = async <T>(
    kind: AuditRecord['kind'],
    server: string,
    name: string,
    run: () => Promise<T>,
    isToolError: (r: T) => boolean = () => false,
  ): Promise<T> => {
    const started = performance.now();
    const base = { sub: currentCaller.getStore()?.sub ?? null, server, kind, name };
    const record = (outcome: AuditRecord['outcome'], error?: string): void =>
      log.write({
        time: new Date().toISOString(),
        ...base,
        outcome,
        durationMs: Math.round(performance.now() - started),
        ...(error !== undefined ? { error: redactString(error).slice(0, 500) } : {}),
      });
    try {
      const r = await run();
      record(isToolError(r) ? 'tool-error' : 'ok');
      return r;
    } catch (err) {
      record('failed', err instanceof Error ? err.message : String(err));
      throw err;
    }
  };
  const audited: Partial<McpHost> = {
    forwardToolCall: (server, tool, args, opts) =>
      timed(
        'tool',
        server,
        tool,
        () => host.forwardToolCall(server, tool, args, opts),
        (r) => r.isError === true,
      ),
    readResource: (server, uri, opts) => timed('resource', server, uri, () => host.readResource(server, uri, opts)),
    forwardResourceRead: (server, uri, opts) =>
      timed('resource', server, uri, () => host.forwardResourceRead(server, uri, opts)),
    getPrompt: (server, name, args, opts) =>
      timed('prompt', server, name, () => host.getPrompt(server, name, args, opts)),
    forwardPrompt: (server, name, args, opts) =>
      timed('prompt', server, name, () => host.forwardPrompt(server, name, args, opts)),
  };
  return new Proxy(host, {
    get(target, prop) {
      if (Object.hasOwn(audited, prop)) return audited[prop as keyof McpHost];
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
