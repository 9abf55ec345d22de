/**
 * The one assembly both front ends build from: the host (`createHost`) and the server registry
 * (config/server-registry.ts) with the front end's ports, and the one link between them, through
 * which every admitted list reaches the host. The editor (extension/main.ts) and the CLI
 * (cli/session.ts) differ only in the ports they pass.
 */
import type { HostOptions } from './host-api.js';
import { createHost, type McpHost } from './host.js';
import { ServerRegistry, type ServerDefinition } from './config/index.js';
import type { ServerRegistryOptions } from './config/server-registry.js';
import { errorMessage } from './errors.js';
import { Emitter, type Event } from './events.js';

/**
 * What of an admitted list the host runs: the editor's dev mode adds debugger flags (and first
 * reserves debugpy's ports, so it may wait), `serve` keeps the servers its gateway exposes. When
 * one list is still waiting as a newer one comes, the newer one wins.
 */
export type DefinitionsPort = (servers: ServerDefinition[]) => ServerDefinition[] | Promise<ServerDefinition[]>;

/** The registry's ports: everything but `apply`, which is the assembly's link to the host. */
export type RegistryPorts = Omit<ServerRegistryOptions, 'apply'>;

/** What a front end builds on the host before the registry exists, and the registry's ports. */
export interface AssemblyParts {
  registry: RegistryPorts;
  /**
   * Where each admitted list goes: through this port to the host (default: every server as
   * admitted), or nowhere ('manual': a CLI command starts exactly the servers it needs).
   */
  definitions?: DefinitionsPort | 'manual';
}

export interface HostAssemblyPorts<T extends AssemblyParts> {
  /** The host's ports, read once the host is first used (a CLI command that edits a file never makes one). */
  host(): HostOptions;
  /**
   * Builds what needs the host (the editor's dev mode and gateway, which the registry's ports ask
   * about) and returns it with the registry's ports; it comes back as `parts`.
   */
  build(core: { readonly host: McpHost }): T;
}

export class HostAssembly<T extends AssemblyParts = AssemblyParts> {
  private made: McpHost | undefined;
  private readonly applied = new Emitter<ServerDefinition[]>();
  /** Fires with each list once the host has it (not for 'manual'). */
  readonly onDidApply: Event<ServerDefinition[]> = this.applied.event;
  /** The registry: read → keep last good → admit → resolve, its lists handed to the host. */
  readonly registry: ServerRegistry;
  /** What `build` made. */
  readonly parts: T;
  /** Counts the lists handed on: a list still waiting in `definitions` is dropped once a newer one came. */
  private generation = 0;

  constructor(private readonly ports: HostAssemblyPorts<T>) {
    this.parts = ports.build(this);
    const { registry, definitions } = this.parts;
    this.registry = new ServerRegistry({
      ...registry,
      apply: definitions === 'manual' ? () => {} : (servers) => this.apply(servers, definitions, registry),
    });
  }

  /** The host, made on first use. */
  get host(): McpHost {
    this.made ??= createHost(this.ports.host());
    return this.made;
  }

  /** Whether the host was made (a CLI run that never used it has nothing to stop). */
  get hasHost(): boolean {
    return this.made !== undefined;
  }

  private apply(servers: ServerDefinition[], port: DefinitionsPort | undefined, o: RegistryPorts): void {
    const mine = ++this.generation;
    const out = port ? port(servers) : servers;
    if (Array.isArray(out)) return this.toHost(out);
    void out.then(
      (defs) => mine === this.generation && this.toHost(defs),
      (err: unknown) => o.log.error(`preparing the server definitions failed: ${errorMessage(err)}`),
    );
  }

  private toHost(defs: ServerDefinition[]): void {
    this.host.setDefinitions(defs);
    this.applied.fire(defs);
  }

  /** Stops following the config, then every server (resolves when their process trees are gone). */
  async dispose(): Promise<void> {
    this.registry.dispose();
    this.applied.dispose();
    await this.made?.dispose();
  }
}

/** The host and its registry with a front end's ports (see `HostAssembly`). */
export function assembleHost<T extends AssemblyParts>(ports: HostAssemblyPorts<T>): HostAssembly<T> {
  return new HostAssembly(ports);
}
