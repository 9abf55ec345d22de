/**
 * `headersHelper` (as in Claude Code): a shell command whose stdout is a JSON object of HTTP
 * headers, for credentials that change (short-lived tokens from a company tool). It runs at
 * connect and again when the server answers 401 or 403. Its output is a secret: never logged,
 * never in an error, and every value is registered with redaction before anything else sees it.
 * Bounded: a helper that hangs is killed after the timeout, one that prints too much is stopped.
 */
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { HostError } from './errors.js';
import { killTree } from './process-tree.js';
import { learnSecretValues } from '../redact.js';
import type { RemoteServerConfig, ServerDefinition } from '../config/types.js';

export const HEADERS_HELPER_TIMEOUT_MS = 10_000;
export const HEADERS_HELPER_MAX_BYTES = 64 * 1024;

export interface HeadersHelperOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  maxBytes?: number;
}

function fail(server: string, what: string): HostError {
  return new HostError(
    'headers-helper',
    `${server}: its headersHelper ${what}`,
    'Run the headersHelper command yourself: it must print one JSON object of header names to string values, within the time limit.',
  );
}

/** Runs the helper once; resolves with its headers or rejects with a HostError that quotes none of its output. */
export function runHeadersHelper(
  server: string,
  command: string,
  o: HeadersHelperOptions = {},
): Promise<Record<string, string>> {
  const timeoutMs = o.timeoutMs ?? HEADERS_HELPER_TIMEOUT_MS;
  const maxBytes = o.maxBytes ?? HEADERS_HELPER_MAX_BYTES;
  const win = process.platform === 'win32';
  return new Promise((resolve, reject) => {
    const child = spawn(
      win ? (process.env.ComSpec ?? 'cmd.exe') : '/bin/sh',
      win ? ['/d', '/s', '/c', command] : ['-c', command],
      {
        cwd: o.cwd ?? homedir(),
        env: { ...process.env, ...o.env },
        stdio: ['ignore', 'pipe', 'ignore'],
        // Its own group, so a shell's grandchildren die with it on timeout.
        detached: !win,
        windowsHide: true,
      },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: HostError | undefined, headers?: Record<string, string>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        if (child.pid !== undefined && child.exitCode === null) void killTree(child.pid).catch(() => {});
        reject(err);
      } else resolve(headers!);
    };
    const timer = setTimeout(
      () => finish(fail(server, `did not finish within ${Math.round(timeoutMs / 1000)} s; it was stopped.`)),
      timeoutMs,
    );
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size > maxBytes) finish(fail(server, `printed more than ${maxBytes} bytes; it was stopped.`));
      else chunks.push(b);
    });
    child.on('error', (e) =>
      finish(fail(server, `could not be started (${(e as NodeJS.ErrnoException).code ?? e.message}).`)),
    );
    child.on('close', (code, signal) => {
      if (code !== 0) {
        finish(fail(server, signal ? `was killed by ${signal}.` : `exited with code ${code}.`));
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        finish(fail(server, 'did not print JSON (its output is not shown: it may hold credentials).'));
        return;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        finish(fail(server, 'printed JSON that is not an object of headers.'));
        return;
      }
      const entries = Object.entries(parsed as Record<string, unknown>);
      const bad = entries.filter(
        ([k, v]) => typeof v !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) || /[\r\n\0]/.test(v),
      );
      if (bad.length) {
        finish(
          fail(
            server,
            `printed ${bad.length} header(s) that are not a valid name with a one-line string value (${bad.map(([k]) => JSON.stringify(k.slice(0, 40))).join(', ')}).`,
          ),
        );
        return;
      }
      const headers = Object.fromEntries(entries) as Record<string, string>;
      learnSecretValues(Object.values(headers));
      finish(undefined, headers);
    });
  });
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The helper's headers for one connection: fetched at connect, put on every request, and fetched
 * again (once, shared by concurrent requests) when the server answers 401 or 403, then the request
 * is retried once with the new headers.
 */
export class HeadersHelperSession {
  private current: Record<string, string> = {};
  private refreshing: Promise<Record<string, string>> | undefined;

  constructor(
    private readonly def: ServerDefinition & { config: RemoteServerConfig & { headersHelper: string } },
    private readonly o: HeadersHelperOptions = {},
  ) {}

  /** At connect: a failing helper fails the connection, with its reason. */
  async start(): Promise<Record<string, string>> {
    this.current = await this.run();
    return this.current;
  }

  private run(): Promise<Record<string, string>> {
    return runHeadersHelper(this.def.name, this.def.config.headersHelper, {
      cwd: this.def.source.folder,
      ...this.o,
    });
  }

  private refresh(): Promise<Record<string, string>> {
    this.refreshing ??= this.run().then(
      (h) => {
        this.current = h;
        this.refreshing = undefined;
        return h;
      },
      (e: unknown) => {
        this.refreshing = undefined;
        throw e;
      },
    );
    return this.refreshing;
  }

  /** Wraps the transport's fetch: the helper's headers win over the entry's. */
  wrap(inner: Fetch | undefined): Fetch {
    const base: Fetch = inner ?? ((u, i) => fetch(u, i));
    const send = (url: string | URL, init: RequestInit | undefined, headers: Record<string, string>) => {
      const h = new Headers(init?.headers);
      for (const [k, v] of Object.entries(headers)) h.set(k, v);
      return base(url, { ...init, headers: h });
    };
    return async (url, init) => {
      const res = await send(url, init, this.current);
      if (res.status !== 401 && res.status !== 403) return res;
      await res.body?.cancel().catch(() => {});
      return send(url, init, await this.refresh());
    };
  }
}

/** The session for a remote server with a helper, else undefined. */
export function headersHelperFor(def: ServerDefinition, o?: HeadersHelperOptions): HeadersHelperSession | undefined {
  const c = def.config;
  if (c.type === 'stdio' || c.type === 'inprocess' || !c.headersHelper) return undefined;
  return new HeadersHelperSession(
    def as ServerDefinition & { config: RemoteServerConfig & { headersHelper: string } },
    o,
  );
}
