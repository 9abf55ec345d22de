/**
 * A client of the MCP Registry API v0.1 (`GET /v0.1/servers`, `GET /v0.1/servers/{name}/versions/latest`).
 * Every request has a timeout; a registry that is down, slow or answers nonsense is a
 * RegistryError with a message a person can act on, never a crash or a hang.
 */
import { parseServerItem, type RegistryServer } from './schema.js';
import { McpHostError } from '../errors.js';
import { SETTING_DEFAULTS } from '../setting-defaults.js';

export const DEFAULT_REGISTRY_URL: string = SETTING_DEFAULTS['registry.url'];

export class RegistryError extends McpHostError {
  constructor(
    readonly code: 'disabled' | 'unreachable' | 'timeout' | 'http' | 'invalid-response' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

export interface RegistryPage {
  servers: RegistryServer[];
  /** Opaque; pass back to get the next page. Undefined on the last page. */
  nextCursor?: string;
  /** Entries of this page that could not be read, with the reason. */
  skipped: string[];
}

export interface RegistryClientOptions {
  baseUrl: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class RegistryClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(o: RegistryClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? 10_000;
    this.fetchFn = o.fetch ?? fetch;
  }

  /** One page of the latest version of each server matching `query` (all servers when empty). */
  async search(
    query: string,
    o: { cursor?: string; limit?: number; signal?: AbortSignal } = {},
  ): Promise<RegistryPage> {
    const url = new URL(`${this.baseUrl}/v0.1/servers`);
    if (query.trim()) url.searchParams.set('search', query.trim());
    url.searchParams.set('limit', String(o.limit ?? 30));
    url.searchParams.set('version', 'latest');
    if (o.cursor) url.searchParams.set('cursor', o.cursor);
    const body = await this.getJson(url, o.signal);
    const list = (body as { servers?: unknown }).servers;
    if (!Array.isArray(list))
      throw new RegistryError(
        'invalid-response',
        `${this.baseUrl} did not answer with a server list ("servers" is missing). Is mcpHost.registry.url an MCP Registry (API v0.1)?`,
      );
    const servers: RegistryServer[] = [];
    const skipped: string[] = [];
    for (const item of list) {
      const r = parseServerItem(item);
      if (r.server) servers.push(r.server);
      else skipped.push(r.reason!);
    }
    const meta = (body as { metadata?: { nextCursor?: unknown } }).metadata;
    const next = typeof meta?.nextCursor === 'string' && meta.nextCursor !== '' ? meta.nextCursor : undefined;
    return { servers, nextCursor: next, skipped };
  }

  /** The server named `name` (e.g. "io.github.user/weather"): its latest version, or `o.version`. */
  async get(name: string, o: { signal?: AbortSignal; version?: string } = {}): Promise<RegistryServer> {
    const version = o.version ?? 'latest';
    const url = new URL(
      `${this.baseUrl}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`,
    );
    let body: unknown;
    try {
      body = await this.getJson(url, o.signal);
    } catch (e) {
      if (!(e instanceof RegistryError && e.code === 'not-found')) throw e;
      // Some registries serve only the list: look the name up there before giving up.
      const page = await this.search(name, { limit: 100, signal: o.signal });
      // The list holds latest versions only: a pinned one is confirmed only when it is the latest.
      const found = page.servers.find((s) => s.name === name && (o.version === undefined || s.version === o.version));
      if (found) return found;
      throw new RegistryError(
        'not-found',
        `The registry has no server named "${name}"${o.version === undefined ? '' : ` at version ${o.version}`}. Search for it with: mcp-host search ${name.split('/').pop() ?? name}`,
      );
    }
    const r = parseServerItem(body);
    if (!r.server)
      throw new RegistryError('invalid-response', `The registry's entry for "${name}" cannot be used: ${r.reason}`);
    if (o.version !== undefined && r.server.version !== o.version)
      throw new RegistryError(
        'invalid-response',
        `The registry answered version ${r.server.version ?? '(none)'} of "${name}" when asked for ${o.version}`,
      );
    return r.server;
  }

  private async getJson(url: URL, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await this.fetchFn(url, { headers: { accept: 'application/json' }, signal: combined });
    } catch (e) {
      if (signal?.aborted) throw e;
      if (timeout.aborted)
        throw new RegistryError(
          'timeout',
          `The registry at ${this.baseUrl} did not answer within ${Math.round(this.timeoutMs / 1000)} s. Try again later, or check mcpHost.registry.url.`,
        );
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new RegistryError(
        'unreachable',
        `Cannot reach the registry at ${this.baseUrl} (${cause?.code ?? cause?.message ?? (e as Error).message}). Check your connection or mcpHost.registry.url.`,
      );
    }
    const text = await readBody(res, timeout, this.baseUrl, this.timeoutMs);
    if (res.status === 404) throw new RegistryError('not-found', `${url.pathname} was not found on ${this.baseUrl}.`);
    if (!res.ok)
      throw new RegistryError(
        'http',
        `The registry at ${this.baseUrl} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}. Try again later.`,
      );
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RegistryError(
        'invalid-response',
        `The registry at ${this.baseUrl} did not answer with JSON. Is mcpHost.registry.url an MCP Registry (API v0.1)?`,
      );
    }
  }
}

/** The body, within the same timeout as the headers: a registry that stalls mid-body is "slow" too. */
async function readBody(res: Response, timeout: AbortSignal, base: string, ms: number): Promise<string> {
  try {
    return await res.text();
  } catch (e) {
    if (timeout.aborted)
      throw new RegistryError(
        'timeout',
        `The registry at ${base} did not finish answering within ${Math.round(ms / 1000)} s. Try again later.`,
      );
    throw new RegistryError('unreachable', `The registry at ${base} broke off its answer (${(e as Error).message}).`);
  }
}
