/**
 * The seam client features plug into a launch through (launch.ts): sampling, elicitation, roots,
 * tasks, logging, pings and subscriptions (plugins/client-features.ts), MCP Apps' declaration
 * (plugins/app-ui.ts), era verdicts (plugins/era.ts), the protocol trace (plugins/trace.ts), the
 * list refresh of a server's entry and the cache-hint warnings of its connection. A factory is
 * called once per launch, so every launch starts with fresh plugin state; the launch runs the
 * hooks in a fixed order and disposes every plugin when it ends. A plugin never touches the
 * client's or transport's `onclose`, `onerror`, `onmessage` or `close`: those are the launch's
 * (lint: eslint.config.mjs, HANDLER_ASSIGNMENT).
 */
import type { ClientCapabilities, Transport } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/types.js';
import { errorMessage } from './errors.js';
import type { Logger } from '../ports.js';
import type { HostClient } from './host-client.js';
import type { InFlightCalls } from './in-flight.js';
import type { AttemptPlugins, Handshake, LiveConnection } from './connect.js';

/** What a plugin knows of the launch it belongs to. */
export interface LaunchInfo {
  readonly def: ServerDefinition;
  readonly server: string;
  readonly log: Logger;
  /** The calls in flight on this server: whom a question of the server may belong to (in-flight.ts). */
  readonly calls: InFlightCalls;
  /** The live connection stopped answering (pings): the server reconnects. Ignored once it is not live. */
  unresponsive(why: string): void;
}

/**
 * Hooks, each optional, in the order a launch calls them: `handshake`, then for each client it
 * makes (a probe the server quit on makes a second) `wrapTransport`, `capabilities`,
 * `setupClient`; then `opened` once `initialize` was answered, or `connectFailed`; `connected`
 * once the lists arrived and the connection is live; `dispose` once, when the launch ends, its
 * connection closes, or its attempt fails.
 */
export interface LaunchPlugin {
  /** The era handshake; the first plugin that answers decides. Undefined: 2025-11-25 `initialize` only. */
  handshake?(): Handshake | undefined;
  /** What `initialize` declares, on top of what the plugins before added. */
  capabilities?(caps: ClientCapabilities): ClientCapabilities;
  /**
   * Wraps the fresh transport (by composing: a transport of its own around it); messages pass
   * unchanged. `def` is what the transport was made for (with a headers helper's headers, which a
   * trace must redact too).
   */
  wrapTransport?(transport: Transport, def: ServerDefinition): Transport;
  /** Handlers on the fresh client, before it connects. */
  setupClient?(client: HostClient): void;
  /** `initialize` was answered (the lists are not fetched yet). */
  opened?(conn: LiveConnection): Promise<void> | void;
  /** The attempt did not get through `initialize`. */
  connectFailed?(err: unknown): Promise<void> | void;
  /** The connection is live (lists fetched): start what runs for it. */
  connected?(conn: LiveConnection): void;
  /** End what this plugin started for the launch. */
  dispose?(): void;
}

export type LaunchPluginFactory = (launch: LaunchInfo) => LaunchPlugin;

/** One launch's plugins, made fresh from their factories, with each hook run over all of them in order. */
export class LaunchPlugins implements AttemptPlugins {
  private readonly plugins: LaunchPlugin[];
  private disposed = false;

  constructor(
    factories: readonly LaunchPluginFactory[],
    private readonly info: LaunchInfo,
  ) {
    this.plugins = factories.map((f) => f(info));
  }

  handshake(): Handshake | undefined {
    for (const p of this.plugins) {
      const h = p.handshake?.();
      if (h) return h;
    }
    return undefined;
  }

  capabilities(): ClientCapabilities {
    return this.plugins.reduce<ClientCapabilities>((caps, p) => p.capabilities?.(caps) ?? caps, {});
  }

  /** The first plugin's wrapper is the innermost. */
  wrapTransport(transport: Transport, def: ServerDefinition): Transport {
    return this.plugins.reduce((t, p) => p.wrapTransport?.(t, def) ?? t, transport);
  }

  setupClient(client: HostClient): void {
    for (const p of this.plugins) p.setupClient?.(client);
  }

  async opened(conn: LiveConnection): Promise<void> {
    for (const p of this.plugins) await p.opened?.(conn);
  }

  async connectFailed(err: unknown): Promise<void> {
    for (const p of this.plugins) await p.connectFailed?.(err);
  }

  connected(conn: LiveConnection): void {
    for (const p of this.plugins) p.connected?.(conn);
  }

  /** Once; in reverse order, so a plugin ends before the ones it was set up after. One that throws does not keep the others running. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const p of [...this.plugins].reverse()) {
      try {
        p.dispose?.();
      } catch (err) {
        this.info.log.error(`a launch plugin failed to end: ${errorMessage(err)}`);
      }
    }
  }
}
