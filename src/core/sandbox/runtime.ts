/**
 * Runs stdio servers inside @anthropic-ai/sandbox-runtime: bubblewrap (Linux) or sandbox-exec
 * (macOS) around the process, and one filtering proxy in this process that every sandboxed server
 * shares (started once, so a server's connect pays only for its own wrapper). The library keeps a
 * single global state; this class owns it. What the proxy refuses is reported per server.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type * as SandboxLib from '@anthropic-ai/sandbox-runtime' with { 'resolution-mode': 'import' };
import type { SandboxPlan } from './settings.js';

export type SandboxAvailability = { ok: true; detail: string } | { ok: false; message: string };

export interface SpawnSpec {
  file: string;
  args: string[];
}

/** A network connection or file access the sandbox refused. */
export interface SandboxBlock {
  server: string;
  /** `file`: a write refused; `read`: a hidden path the server tried to open. */
  kind: 'network' | 'file' | 'read';
  /** `host:port` for network, the path for files. */
  target: string;
  line: string;
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

function which(cmd: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Single quotes for POSIX sh: the library runs the wrapped command through a shell. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const INSTALL_HINT =
  'install bubblewrap and socat (Debian/Ubuntu: sudo apt-get install bubblewrap socat ripgrep; Fedora: sudo dnf install bubblewrap socat ripgrep; Arch: sudo pacman -S bubblewrap socat ripgrep)';

interface Active {
  plan: SandboxPlan;
  tmp: string;
}

export class SandboxRuntime {
  private availability: Promise<SandboxAvailability> | undefined;
  private manager: Promise<Manager> | undefined;
  private readonly active = new Map<string, Active>();
  private readonly listeners = new Set<(b: SandboxBlock) => void>();
  private readonly counts = new Map<string, number>();
  private readonly recent = new Map<string, SandboxBlock[]>();
  private seenViolations = 0;
  private bins: { bwrap?: string; socat?: string } = {};

  constructor(private readonly opts: SandboxRuntimeOptions = {}) {}

  private get platform(): NodeJS.Platform {
    return this.opts.platform ?? process.platform;
  }

  /** Whether servers can be sandboxed here; the message says what to install or change. Cached. */
  check(): Promise<SandboxAvailability> {
    return (this.availability ??= this.probe());
  }

  private async probe(): Promise<SandboxAvailability> {
    const p = this.platform;
    if (p === 'win32')
      return {
        ok: false,
        message:
          'MCP Host cannot sandbox local servers on Windows. Run the server inside WSL 2, or (if policy allows) remove "sandboxEnabled" from its config.',
      };
    if (p === 'darwin') return { ok: true, detail: 'macOS sandbox-exec (Seatbelt) and a filtering proxy' };
    if (p !== 'linux')
      return {
        ok: false,
        message: `MCP Host cannot sandbox local servers on ${p}; only Linux and macOS are supported.`,
      };
    const path = this.opts.path ?? process.env.PATH ?? '';
    const bwrap = which('bwrap', path);
    const socat = which('socat', path);
    const rg = which('rg', path);
    const missing = [!bwrap && 'bubblewrap (bwrap)', !socat && 'socat', !rg && 'ripgrep (rg)'].filter(Boolean);
    if (missing.length)
      return { ok: false, message: `The sandbox needs ${missing.join(', ')}, not found on PATH: ${INSTALL_HINT}.` };
    this.bins = { bwrap, socat };
    const refusal = await probeBwrap(bwrap!);
    if (refusal !== undefined)
      return {
        ok: false,
        message: `bubblewrap cannot create the sandbox's namespaces here (${refusal}). Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap), or run outside a container that forbids them.`,
      };
    return { ok: true, detail: `bubblewrap (${bwrap}), socat and a filtering proxy` };
  }

  /**
   * The command line that runs `spec` under `plan`, and a release to call when the process is gone.
   * Throws with the availability message when the sandbox cannot start: never runs unsandboxed.
   */
  async wrap(server: string, plan: SandboxPlan, spec: SpawnSpec): Promise<{ spec: SpawnSpec; release: () => void }> {
    const a = await this.check();
    if (!a.ok) throw new Error(a.message);
    const tmp = mkdtempSync(join(tmpdir(), `mcp-host-sandbox-`));
    const key = `${server}\u0000${tmp}`;
    this.active.set(key, { plan, tmp });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.active.delete(key);
      rmSync(tmp, { recursive: true, force: true });
      void this.manager?.then((m) => m.updateConfig(this.globalConfig())).catch(() => {});
    };
    try {
      const m = await this.ensureManager();
      m.updateConfig(this.globalConfig());
      // The server's own temporary folder, writable and nobody else's.
      const command = `TMPDIR=${shellQuote(tmp)} exec ${[spec.file, ...spec.args].map(shellQuote).join(' ')}`;
      const { argv } = await m.wrapWithSandboxArgv(
        command,
        undefined,
        {
          filesystem: {
            allowWrite: [...plan.filesystem.allowWrite, tmp],
            denyWrite: plan.filesystem.denyWrite,
            denyRead: plan.filesystem.denyRead,
          },
        },
        undefined,
        undefined,
        { commandId: server, commandText: server },
      );
      return { spec: { file: argv[0], args: argv.slice(1) }, release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /**
   * One proxy serves every sandboxed server and the library filters on one rule set, so the
   * network rules are the union of the running servers' (see README: a domain allowed for one
   * running sandboxed server is reachable by the others; denied domains apply to all).
   */
  private globalConfig() {
    const plans = [...this.active.values()].map((a) => a.plan);
    const all = (f: (p: SandboxPlan) => string[]) => [...new Set(plans.flatMap(f))];
    return {
      network: {
        allowedDomains: all((p) => p.network.allowedDomains),
        deniedDomains: all((p) => p.network.deniedDomains),
        strictAllowlist: true,
      },
      filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
      ...(this.bins.bwrap ? { bwrapPath: this.bins.bwrap } : {}),
      ...(this.bins.socat ? { socatPath: this.bins.socat } : {}),
    };
  }

  private ensureManager(): Promise<Manager> {
    return (this.manager ??= (async () => {
      const { SandboxManager } = await loadLib();
      await SandboxManager.initialize(this.globalConfig());
      const store = SandboxManager.getSandboxViolationStore();
      this.seenViolations = store.getTotalCount();
      store.subscribe(() => {
        const total = store.getTotalCount();
        const fresh = Math.min(total - this.seenViolations, store.getCount());
        this.seenViolations = total;
        if (fresh <= 0) return;
        for (const v of store.getViolations(fresh)) this.report(v.command, v.line);
      });
      return SandboxManager;
    })());
  }

  private report(server: string | undefined, line: string): void {
    if (!server || ![...this.active.keys()].some((k) => k.startsWith(`${server}\u0000`))) return;
    const m = /deny network-outbound (\S+)/.exec(line);
    const block: SandboxBlock = m
      ? { server, kind: 'network', target: m[1], line }
      : { server, kind: 'file', target: /(\/[^\s'"]+)/.exec(line)?.[1] ?? line, line };
    this.noteBlock(block);
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
    const m = this.manager;
    this.manager = undefined;
    if (m) await (await m).reset();
  }
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
