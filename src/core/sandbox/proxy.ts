/**
 * The one filtering proxy every sandboxed server's traffic goes through, with each server's own
 * network rules. The sandbox runtime's own proxy filters on a single rule set for the whole
 * process, so this one is built from the runtime's HTTP, SOCKS and multiplexing proxy servers and
 * handed to it as an external proxy; the runtime still bridges it into each sandbox.
 *
 * A connection says which spawn it belongs to by the user name in its proxy credentials, a random
 * value per spawn: it reaches only that process (through its environment, never a command line),
 * and no other sandboxed process can see it, so one server cannot borrow another's rules. A name
 * the proxy did not hand out is refused.
 */
import { randomBytes } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { SandboxPlan } from '../config/sandbox-settings.js';
import { hostOf } from './allow.js';

import type * as HttpProxy from '@anthropic-ai/sandbox-runtime/dist/sandbox/http-proxy.js' with {
  'resolution-mode': 'import',
};
import type * as SocksProxy from '@anthropic-ai/sandbox-runtime/dist/sandbox/socks-proxy.js' with {
  'resolution-mode': 'import',
};
import type * as MuxProxy from '@anthropic-ai/sandbox-runtime/dist/sandbox/mux-proxy.js' with {
  'resolution-mode': 'import',
};
import type * as Domain from '@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js' with {
  'resolution-mode': 'import',
};
import type * as ParentProxy from '@anthropic-ai/sandbox-runtime/dist/sandbox/parent-proxy.js' with {
  'resolution-mode': 'import',
};
import type * as Guard from '@anthropic-ai/sandbox-runtime/dist/sandbox/resolved-address-guard.js' with {
  'resolution-mode': 'import',
};
import type * as Utils from '@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js' with {
  'resolution-mode': 'import',
};

/** The runtime's proxy parts; in the extension's bundle all of them live in dist/sandbox-runtime.js. */
export type ProxyParts = typeof HttpProxy &
  typeof SocksProxy &
  typeof MuxProxy &
  typeof Domain &
  typeof ParentProxy &
  typeof Guard &
  typeof Utils;

let partsPromise: Promise<ProxyParts> | undefined;
export function loadProxyParts(): Promise<ProxyParts> {
  return (partsPromise ??= (async () => ({
    ...(await import('@anthropic-ai/sandbox-runtime/dist/sandbox/http-proxy.js')),
    ...(await import('@anthropic-ai/sandbox-runtime/dist/sandbox/socks-proxy.js')),
    ...(await import('@anthropic-ai/sandbox-runtime/dist/sandbox/mux-proxy.js')),
    ...(await import('@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js')),
    ...(await import('@anthropic-ai/sandbox-runtime/dist/sandbox/parent-proxy.js')),
    ...(await import('@anthropic-ai/sandbox-runtime/dist/sandbox/resolved-address-guard.js')),
    ...(await import('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js')),
  }))());
}

/**
 * A refused connection: `target` is `host:port` (the host canonical), `offer` false when no allow
 * rule could let it through (a malformed host, shown JSON-quoted; a denied address).
 */
export type OnBlocked = (target: string, reason: string, offer: boolean) => void;

interface Client {
  rules: SandboxPlan['network'];
  lookup: (port: number) => LookupFunction;
  onBlocked: OnBlocked;
}

export interface ProxyClient {
  /** Environment for the sandboxed process: the proxy variables, credentials included. */
  env: Record<string, string>;
  release: () => void;
}

export class SandboxProxy {
  private readonly clients = new Map<string, Client>();
  private closeAll: (() => Promise<void>) | undefined;

  private constructor(
    private readonly parts: ProxyParts,
    readonly port: number,
    /** Shared by every client: the per-spawn user name is what tells them apart. */
    private readonly token: string,
  ) {}

  static async start(): Promise<SandboxProxy> {
    const parts = await loadProxyParts();
    // The servers' filters need the instance, which needs the port they listen on.
    const ref: { self?: SandboxProxy } = {};
    const filter = (port: number, host: string, encoded?: string) => ref.self?.allows(port, host, encoded) ?? false;
    const lookupFor = (port: number, encoded?: string): LookupFunction => {
      const c = encoded ? ref.self?.clients.get(encoded) : undefined;
      return c ? c.lookup(port) : (_h, _o, cb) => cb(new Error('unknown sandbox client'), '', 4);
    };
    const token = randomBytes(16).toString('hex');
    const http = parts.createHttpProxyServer({
      filter: (port, host, _socket, encoded) => filter(port, host, encoded),
      lookupFor,
      proxyAuthToken: token,
    });
    const socks = parts.createSocksProxyServer({ filter, lookupFor, proxyAuthToken: token });
    const mux = parts.createMuxProxyServer({
      httpServer: http,
      handleSocksConnection: (s) => socks.handleConnection(s),
    });
    await mux.listenHttpBackend();
    await new Promise<void>((resolve, reject) => {
      mux.server.once('error', reject);
      mux.server.listen(0, '127.0.0.1', () => resolve());
    });
    mux.unref();
    const port = mux.getPort();
    if (port === undefined) throw new Error('the sandbox proxy did not get a port');
    const self = (ref.self = new SandboxProxy(parts, port, token));
    self.closeAll = async () => {
      await Promise.allSettled([mux.close(), socks.close(), new Promise<void>((r) => http.close(() => r()))]);
    };
    return self;
  }

  /**
   * Admits one sandboxed process under `rules`. `inside` is the HTTP and SOCKS port the process
   * reaches the proxy on (the runtime's bridge inside the sandbox on Linux, this port on macOS).
   */
  admit(rules: SandboxPlan['network'], inside: { http: number; socks: number }, onBlocked: OnBlocked): ProxyClient {
    const encoded = randomBytes(18).toString('base64url');
    const guard = this.parts.createResolvedAddressGuard({
      allowedDomains: rules.allowedDomains,
      deniedDomains: rules.deniedDomains,
    });
    const lookup = (port: number): LookupFunction => {
      const base = guard.lookupFor(port);
      return (hostname, options, callback) =>
        base(hostname, options, (err, address, family) => {
          // The host is allowed; where it resolved to is not: allowing the host again changes nothing.
          if (this.parts.isResolvedAddressDenied(err)) onBlocked(`${hostname}:${port}`, err.reason, false);
          (callback as (e: unknown, a: unknown, f: unknown) => void)(err, address, family);
        });
    };
    this.clients.set(encoded, { rules, lookup, onBlocked });
    const env: Record<string, string> = {};
    // skipTmpdir: the server's own temporary folder is set by the runtime (runtime.ts).
    for (const line of this.parts.generateProxyEnvVars(
      inside.http,
      inside.socks,
      undefined,
      this.token,
      true,
      encoded,
    )) {
      const eq = line.indexOf('=');
      env[line.slice(0, eq)] = line.slice(eq + 1);
    }
    return { env, release: () => this.clients.delete(encoded) };
  }

  /** The runtime's own rule order: malformed hosts and denied domains first, then the allow list. */
  private allows(port: number, host: string, encoded: string | undefined): boolean {
    const c = encoded ? this.clients.get(encoded) : undefined;
    if (!c) return false;
    if (!this.parts.isValidHost(host)) {
      // The server chose these bytes: quoted and cut, so they can neither fake a log line nor be offered.
      c.onBlocked(`${JSON.stringify(host.slice(0, 100))}:${port}`, 'malformed host', false);
      return false;
    }
    const canonical = this.parts.canonicalizeHost(host) ?? host;
    const target = canonical.includes(':') ? `[${canonical}]:${port}` : `${canonical}:${port}`;
    const deny = (reason: string) => {
      c.onBlocked(target, reason, hostOf(target) !== undefined);
      return false;
    };
    const matches = (p: string) => this.parts.matchesDomainPatternWithPort(canonical, port, p);
    if (c.rules.deniedDomains.some(matches)) return deny('host is on the deny list');
    if (c.rules.allowedDomains.some(matches)) return true;
    return deny('host is not on the allow list');
  }

  /** Processes admitted and not yet released (tests). */
  get clientCount(): number {
    return this.clients.size;
  }

  async close(): Promise<void> {
    this.clients.clear();
    await this.closeAll?.();
  }
}
