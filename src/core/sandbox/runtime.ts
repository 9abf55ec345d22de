/**
 * Runs stdio servers inside @anthropic-ai/sandbox-runtime: bubblewrap (Linux) or sandbox-exec
 * (macOS) around the process, and one filtering proxy in this process that every sandboxed server
 * shares, each under its own network rules (proxy.ts). The proxy and the runtime start once (on
 * the first sandboxed server, or earlier through `prewarm`), so a connect pays only for its own
 * wrapper. The library keeps a single global state; this class owns it. What the sandbox refuses
 * is reported per server.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import type * as SandboxLib from '@anthropic-ai/sandbox-runtime' with { 'resolution-mode': 'import' };
import type { SandboxPlan } from '../config/sandbox-settings.js';
import type { SandboxBlock } from './block.js';
import { SandboxProxy } from './proxy.js';
import { protectedWritePaths } from './workspace-guard.js';
import { ServerTmpDirs } from './server-tmp.js';
import { HOST_PATH, findOn, splitServerEnv } from './host-env.js';
import { concretePath, hostOf } from './allow.js';
import { INSTANCE_ENV, OWNER_ENV } from '../process-marks.js';
import { seccompLayer } from './seccomp.js';

/**
 * `weaker`: what the runtime itself reports it cannot enforce here (its dependency check's warnings:
 * on Linux "seccomp not available" when MCP Host's apply-seccomp for this CPU, seccomp.ts, is missing,
 * as in a package built for another platform). The sandbox still runs, without that layer.
 */
export type SandboxAvailability = { ok: true; detail: string; weaker: string[] } | { ok: false; message: string };

export interface SpawnSpec {
  file: string;
  args: string[];
}

export type { SandboxBlock } from './block.js';

export interface WrappedSpawn {
  spec: SpawnSpec;
  /** The wrapper's whole environment (replaces, never adds to, the server's): host-env.ts. */
  env: Record<string, string>;
  /** Server variables a POSIX shell cannot pass on (names that are not identifiers). */
  dropped: string[];
  release: () => void;
}

export interface SandboxRuntimeOptions {
  /** PATH to find bwrap, socat and rg on; default process.env.PATH. */
  path?: string;
  platform?: NodeJS.Platform;
}

type Lib = typeof SandboxLib;
type Manager = Lib['SandboxManager'];

let libPromise: Promise<Lib> | undefined;
const loadLib = (): Promise<Lib> => (libPromise ??= import('@anthropic-ai/sandbox-runtime'));

/** Single quotes for POSIX sh: the library runs the wrapped command through a shell. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell the runtime runs its wrapper in on Linux, found on the system PATH (never the entry's:
 * host-env.ts). Not bash: our stdio pipes are sockets, and
 * bash on a socket stdin takes itself for an rsh session and reads ~/.bashrc (Debian's build
 * does), which costs each layer of the wrapper the user's whole shell set-up (pyenv, nvm: 100 ms
 * and more) and runs it around the server. The wrapper and our command are plain POSIX sh.
 */
const POSIX_SHELL = 'sh';

/** Names the proxy variables travel under until the sandboxed shell exports them. */
const ENV_PREFIX = 'MCP_HOST_SANDBOX_';

const INSTALL_HINT =
  'install bubblewrap and socat (Debian/Ubuntu: sudo apt-get install bubblewrap socat ripgrep; Fedora: sudo dnf install bubblewrap socat ripgrep; Arch: sudo pacman -S bubblewrap socat ripgrep)';

interface Active {
  plan: SandboxPlan;
  tmp: string;
}

/** Where a sandboxed process reaches the proxy: the runtime's bridge inside the sandbox on Linux. */
const LINUX_BRIDGE_PORTS = { http: 3128, socks: 1080 };

export class SandboxRuntime {
  private availability: Promise<SandboxAvailability> | undefined;
  private checked: SandboxAvailability | undefined;
  private manager: Promise<{ lib: Manager; proxy: SandboxProxy }> | undefined;
  private readonly active = new Map<string, Active>();
  private readonly tmpDirs = new ServerTmpDirs();
  private readonly listeners = new Set<(b: SandboxBlock) => void>();
  private readonly counts = new Map<string, number>();
  private readonly recent = new Map<string, SandboxBlock[]>();
  private seenViolations = 0;
  private generation = 0;
  private bins: { bwrap?: string; socat?: string; sh?: string } = {};

  constructor(private readonly opts: SandboxRuntimeOptions = {}) {}

  private get platform(): NodeJS.Platform {
    return this.opts.platform ?? process.platform;
  }

  /** Whether servers can be sandboxed here; the message says what to install or change. Cached. */
  check(): Promise<SandboxAvailability> {
    return (this.availability ??= this.probe().then((a) => (this.checked = a)));
  }

  /** What `check` found, once it has finished: for views that cannot wait (a tree row's tooltip). */
  lastCheck(): SandboxAvailability | undefined {
    return this.checked;
  }

  private async probe(): Promise<SandboxAvailability> {
    const p = this.platform;
    if (p === 'win32')
      return {
        ok: false,
        message:
          'MCP Host cannot sandbox local servers on Windows. Run the server inside WSL 2, or (if policy allows) remove "sandboxEnabled" from its config.',
      };
    if (p === 'darwin')
      return {
        ok: true,
        detail: 'macOS sandbox-exec (Seatbelt) and a filtering proxy',
        weaker: await runtimeWarnings(),
      };
    if (p !== 'linux')
      return {
        ok: false,
        message: `MCP Host cannot sandbox local servers on ${p}; only Linux and macOS are supported.`,
      };
    const path = this.opts.path ?? process.env.PATH ?? '';
    const bwrap = findOn('bwrap', path);
    const socat = findOn('socat', path);
    const rg = findOn('rg', path);
    const missing = [!bwrap && 'bubblewrap (bwrap)', !socat && 'socat', !rg && 'ripgrep (rg)'].filter(Boolean);
    if (missing.length)
      return { ok: false, message: `The sandbox needs ${missing.join(', ')}, not found on PATH: ${INSTALL_HINT}.` };
    const sh = findOn(POSIX_SHELL, HOST_PATH);
    if (!sh) return { ok: false, message: `The sandbox needs a POSIX shell (sh) in ${HOST_PATH}.` };
    this.bins = { bwrap, socat, sh };
    const refusal = await probeBwrap(bwrap!);
    if (refusal !== undefined)
      return {
        ok: false,
        message: `bubblewrap cannot create the sandbox's namespaces here (${refusal}). Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap), or run outside a container that forbids them.`,
      };
    return { ok: true, detail: `bubblewrap (${bwrap}), socat and a filtering proxy`, weaker: await runtimeWarnings() };
  }

  /**
   * Starts the proxy and the runtime now, so the first sandboxed server does not wait for them
   * (called when a sandboxed server is configured). Failures are left for `wrap` to report.
   */
  prewarm(): void {
    // A dispose while the check runs wins: nothing is left listening after it.
    const generation = this.generation;
    void this.check()
      .then((a) => (a.ok && generation === this.generation ? this.ensureManager() : undefined))
      .catch(() => {});
  }

  /**
   * The command line that runs `spec` under `plan`, the wrapper's whole environment (`serverEnv`,
   * what the server would get unsandboxed, applies only inside the sandbox), and a release to call
   * when the process is gone. Throws with the availability message when the sandbox cannot start:
   * never runs unsandboxed.
   */
  async wrap(
    server: string,
    plan: SandboxPlan,
    spec: SpawnSpec,
    serverEnv: Record<string, string> = {},
  ): Promise<WrappedSpawn> {
    const a = await this.check();
    if (!a.ok) throw new Error(a.message);
    const tmp = this.tmpDirs.make();
    const key = `${server}\u0000${tmp}`;
    this.active.set(key, { plan, tmp });
    let wrapped = false;
    let client: { release: () => void } | undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.active.delete(key);
      client?.release();
      rmSync(tmp, { recursive: true, force: true });
      // The runtime counts live wrappers to know when its mount-point stubs may go.
      if (wrapped) void this.manager?.then((m) => m.lib.cleanupAfterCommand()).catch(() => {});
    };
    try {
      // The workspace scan runs while the runtime starts (first server) or at once (later ones).
      const [{ lib, proxy }, guarded] = await Promise.all([
        this.ensureManager(),
        protectedWritePaths(plan.filesystem.allowWrite),
      ]);
      const proxyClient = proxy.admit(
        plan.network,
        this.platform === 'linux' ? LINUX_BRIDGE_PORTS : { http: proxy.port, socks: proxy.port },
        (target, reason, offer) =>
          this.noteBlock({
            server,
            kind: 'network',
            target,
            line: `deny network-outbound ${target} (${reason})`,
            ...(offer ? {} : { offer: false as const }),
          }),
      );
      client = proxyClient;
      // The proxy variables are exported inside: the runtime sets them without credentials, and
      // the credentials travel in the environment, not on a command line. TMPDIR: the server's own
      // temporary folder, writable and hidden from the others (server-tmp.ts).
      const exports = Object.keys(proxyClient.env).map(
        (k) => `export ${k}="$${ENV_PREFIX}${k}"; unset ${ENV_PREFIX}${k}`,
      );
      const proxyEnv = Object.fromEntries(Object.entries(proxyClient.env).map(([k, v]) => [`${ENV_PREFIX}${k}`, v]));
      // The markers stay on the wrapper too: the process-tree stop and the host-death watcher
      // (host-reaper.ts) find bwrap and sh by them.
      const marker: Record<string, string> = {};
      for (const k of [INSTANCE_ENV, OWNER_ENV]) if (serverEnv[k] !== undefined) marker[k] = serverEnv[k];
      const split = splitServerEnv(serverEnv, { ...proxyEnv, ...marker, ...this.seccomp().env });
      // The server's own variables first, the proxy's after them: its HTTP_PROXY cannot replace ours.
      const command = [
        ...split.inside,
        ...exports,
        `TMPDIR=${shellQuote(tmp)} exec ${[spec.file, ...spec.args].map(shellQuote).join(' ')}`,
      ].join('\n');
      const { argv } = await lib.wrapWithSandboxArgv(
        command,
        this.platform === 'linux' ? this.bins.sh : undefined,
        {
          filesystem: {
            allowWrite: [...plan.filesystem.allowWrite, tmp],
            denyWrite: [...plan.filesystem.denyWrite, ...guarded, ...this.seccomp().denyWrite],
            denyRead: [...plan.filesystem.denyRead, this.tmpDirs.hidden()],
          },
        },
        undefined,
        undefined,
        { commandId: server, commandText: server },
      );
      wrapped = true;
      return { spec: { file: argv[0], args: argv.slice(1) }, env: split.host, dropped: split.dropped, release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /**
   * The runtime's own settings: filesystem rules come per wrap, network rules per process from our
   * proxy, so the runtime's proxy is replaced by ours (an external proxy to it). The scan for
   * dangerous files under the host's working directory is kept shallow: that folder is not the
   * server's, the workspace folders are guarded by workspace-guard.ts.
   */
  private runtimeConfig(proxyPort: number) {
    return {
      network: {
        allowedDomains: [],
        deniedDomains: [],
        httpProxyPort: proxyPort,
        socksProxyPort: proxyPort,
      },
      filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
      mandatoryDenySearchDepth: 1,
      ...(this.bins.bwrap ? { bwrapPath: this.bins.bwrap } : {}),
      ...this.seccomp().config,
      ...(this.bins.socat ? { socatPath: this.bins.socat } : {}),
    };
  }

  /** MCP Host's seccomp helper (seccomp.ts): the runtime's setting, the wrapper's variable, its folder. */
  private seccomp() {
    return seccompLayer(this.platform, this.bins.bwrap);
  }

  private ensureManager(): Promise<{ lib: Manager; proxy: SandboxProxy }> {
    return (this.manager ??= (async () => {
      const [{ SandboxManager }, proxy] = await Promise.all([loadLib(), SandboxProxy.start()]);
      try {
        // macOS reports refused file accesses through its log; the monitor attributes them per server.
        await SandboxManager.initialize(this.runtimeConfig(proxy.port), undefined, this.platform === 'darwin');
      } catch (e) {
        await proxy.close();
        throw e;
      }
      const store = SandboxManager.getSandboxViolationStore();
      this.seenViolations = store.getTotalCount();
      store.subscribe(() => {
        const total = store.getTotalCount();
        const fresh = Math.min(total - this.seenViolations, store.getCount());
        this.seenViolations = total;
        if (fresh <= 0) return;
        for (const v of store.getViolations(fresh)) this.report(v.command, v.line);
      });
      return { lib: SandboxManager, proxy };
    })().catch((e: unknown) => {
      this.manager = undefined;
      throw e;
    }));
  }

  private report(server: string | undefined, line: string): void {
    if (!server || ![...this.active.keys()].some((k) => k.startsWith(`${server}\u0000`))) return;
    this.noteBlock(parseViolation(server, line));
  }

  /** Records a refusal seen elsewhere (e.g. a read-only file system error on the server's stderr). */
  noteBlock(block: SandboxBlock): void {
    this.counts.set(block.server, (this.counts.get(block.server) ?? 0) + 1);
    const list = (this.recent.get(block.server) ?? []).filter(
      (b) => b.kind !== block.kind || b.target !== block.target,
    );
    this.recent.set(block.server, [block, ...list].slice(0, 20));
    for (const l of this.listeners) l(block);
  }

  onBlocked(listener: (b: SandboxBlock) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The latest distinct refusals of a server, newest first (what "Allow in Sandbox" offers). */
  recentBlocks(server: string): SandboxBlock[] {
    return this.recent.get(server) ?? [];
  }

  /** Refusals reported for a server since this host started. */
  blockedCount(server: string): number {
    return this.counts.get(server) ?? 0;
  }

  /** Stops the shared proxy (tests, deactivate). */
  async dispose(): Promise<void> {
    this.generation++;
    this.tmpDirs.dispose();
    const m = this.manager;
    this.manager = undefined;
    if (!m) return;
    const started = await m.catch(() => undefined);
    if (!started) return;
    await started.lib.reset();
    await started.proxy.close();
  }
}

/**
 * A refusal the runtime's monitor saw (macOS's sandbox log). The line names what the process asked
 * for, so what it names is offered only when it is a concrete host or path (allow.ts).
 */
export function parseViolation(server: string, line: string): SandboxBlock {
  const m = /deny network-outbound (\S+)/.exec(line);
  if (m) return { server, kind: 'network', target: m[1], line, ...(hostOf(m[1]) ? {} : { offer: false as const }) };
  const path = /(\/[^\s'"]+)/.exec(line)?.[1];
  const target = path !== undefined ? concretePath(path) : undefined;
  return target ? { server, kind: 'file', target, line } : { server, kind: 'file', target: line, line, offer: false };
}

/**
 * The runtime's own dependency warnings (its initialize ignores them): the apply-seccomp helper is
 * looked up where the library (or our bundle of it) keeps it, so a missing one is seen here.
 */
async function runtimeWarnings(): Promise<string[]> {
  const { SandboxManager } = await loadLib();
  // The async form: where the helper is not beside the library it asks `npm root -g`, off the event loop.
  return (await SandboxManager.checkDependenciesAsync()).warnings;
}

/** Runs bwrap with the namespaces the sandbox uses; undefined when it works, else bwrap's complaint. */
function probeBwrap(bwrap: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      bwrap,
      [
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--unshare-net',
        '--unshare-pid',
        '--unshare-user',
        '--proc',
        '/proc',
        '--',
        'true',
      ],
      { timeout: 10_000 },
      (err, _out, stderr) => resolve(err ? (stderr.trim() || err.message).split('\n')[0] : undefined),
    );
  });
}

let shared: SandboxRuntime | undefined;
/** The process-wide runtime (the library's state is global, so one per process). */
export function sharedSandboxRuntime(): SandboxRuntime {
  return (shared ??= new SandboxRuntime());
}
