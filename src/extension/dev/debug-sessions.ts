/**
 * `dev.debug`: servers start under their debugger (the command is rewritten in `prepare`), and the
 * editor attaches when the debugger is ready: Node prints "Debugger listening on ws://…:PORT" to
 * stderr, debugpy listens on the port chosen here. The session and the server live and die
 * together: ending the session stops the server, and a server that stops ends its session.
 */
import * as vscode from 'vscode';
import { freeLoopbackPort } from '../../core/loopback.js';
import type { ServerChangeEvent } from '../../core/host-api.js';
import type { McpHost } from '../../core/host.js';
import type { ServerDefinition, StdioServerConfig } from '../../core/config/index.js';
import {
  attachConfiguration,
  debugConfigFor,
  DebugSetupError,
  parseDebuggerListening,
  SERVER_KEY,
} from '../../core/dev/index.js';
import type { Logger } from '../../core/ports.js';

interface Attached {
  session?: vscode.DebugSession;
  port: number;
}

/** The server a session (or its parent: js-debug attaches child sessions) was started for. */
function serverOfSession(s: vscode.DebugSession | undefined): string | undefined {
  for (let cur = s; cur; cur = cur.parentSession) {
    const v = (cur.configuration as Record<string, unknown>)[SERVER_KEY];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

export interface DebugDeps {
  host: McpHost;
  log: (server: string) => Logger;
}

export class DebugSessions implements vscode.Disposable {
  private readonly types = new Map<string, 'node' | 'python'>();
  private readonly pythonPorts = new Map<string, number>();
  private readonly attached = new Map<string, Attached>();
  /** Servers whose session the user ended (Stop/Disconnect before the debugger itself ended). */
  private readonly userEnded = new Set<string>();
  /** Servers whose session we are ending because the server stopped. */
  private readonly selfEnding = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly startedEmitter = new vscode.EventEmitter<{ server: string; session: vscode.DebugSession }>();
  /** Fires when a debug session attached to a server. */
  readonly onDidAttach = this.startedEmitter.event;

  constructor(private readonly deps: DebugDeps) {
    this.disposables.push(
      this.startedEmitter,
      vscode.debug.onDidTerminateDebugSession((s) => this.onTerminated(s)),
      // Who ended a session? The UI's disconnect/terminate request before the adapter said
      // "terminated" is the user's Stop; after it, the debuggee went away (a restart, a crash).
      vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: (session) => {
          const server = serverOfSession(session);
          if (!server) return undefined;
          let adapterEnded = false;
          return {
            onDidSendMessage: (m: { type?: string; event?: string }) => {
              if (m.type === 'event' && (m.event === 'terminated' || m.event === 'exited')) adapterEnded = true;
            },
            onWillReceiveMessage: (m: { type?: string; command?: string }) => {
              if (
                m.type === 'request' &&
                (m.command === 'disconnect' || m.command === 'terminate') &&
                !adapterEnded &&
                !this.selfEnding.has(server)
              )
                this.userEnded.add(server);
            },
          };
        },
      }),
      deps.host.onDidChangeServer((e) => this.onServerChange(e)),
    );
  }

  /** Picks debugpy ports ahead of time (async), so `prepare` stays synchronous. */
  async reserve(defs: readonly ServerDefinition[]): Promise<void> {
    for (const d of defs) {
      if (d.config.type === 'stdio' && d.config.dev?.debug?.type === 'python' && !this.pythonPorts.has(d.name))
        this.pythonPorts.set(d.name, await freeLoopbackPort());
    }
  }

  /** The definitions the host runs: debugged servers get their debugger flags. Others pass unchanged. */
  prepare(defs: readonly ServerDefinition[]): ServerDefinition[] {
    this.types.clear();
    return defs.map((d) => {
      const c = d.config;
      const type = c.type === 'stdio' && !c.disabled ? c.dev?.debug?.type : undefined;
      if (!type) return d;
      try {
        const config: StdioServerConfig = debugConfigFor(c as StdioServerConfig, {
          pythonPort: this.pythonPorts.get(d.name),
          ...(d.admission?.run && d.admission.sandbox ? { sandboxedBy: d.admission.sandbox.by } : {}),
        });
        this.types.set(d.name, type);
        return { ...d, config };
      } catch (err) {
        if (!(err instanceof DebugSetupError)) throw err;
        this.deps.log(d.name).error(`dev: not started under the debugger: ${err.message}`);
        return d;
      }
    });
  }

  /** A stderr/log line of a server: Node's "Debugger listening" line starts the attach. */
  onServerLine(server: string, line: string): void {
    if (this.types.get(server) !== 'node') return;
    const found = parseDebuggerListening(line);
    // With NODE_OPTIONS every Node process of the server prints one; the first is the server's launcher.
    if (!found || this.attached.get(server)?.port === found.port) return;
    if (this.attached.get(server)?.session) return;
    void this.attach(server, 'node', found.host, found.port);
  }

  private onServerChange(e: ServerChangeEvent): void {
    const st = e.snapshot?.state.kind;
    const a = this.attached.get(e.name);
    if (st === 'connected') {
      const type = this.types.get(e.name);
      const port = this.pythonPorts.get(e.name);
      if (type === 'python' && port !== undefined && !a?.session) void this.attach(e.name, 'python', '127.0.0.1', port);
      return;
    }
    if (!a) return;
    // The server stopped, failed or is restarting: its session ends with it.
    this.attached.delete(e.name);
    if (a.session && !this.userEnded.has(e.name)) {
      this.selfEnding.add(e.name);
      void vscode.debug.stopDebugging(a.session);
    }
  }

  private async attach(server: string, type: 'node' | 'python', host: string, port: number): Promise<void> {
    const entry: Attached = { port };
    this.attached.set(server, entry);
    const config = attachConfiguration(server, type, host, port);
    const folder = vscode.workspace.workspaceFolders?.[0];
    const started = new Promise<vscode.DebugSession | undefined>((resolve) => {
      const sub = vscode.debug.onDidStartDebugSession((s) => {
        if ((s.configuration as Record<string, unknown>)[SERVER_KEY] !== server) return;
        sub.dispose();
        resolve(s);
      });
      setTimeout(() => {
        sub.dispose();
        resolve(undefined);
      }, 30_000).unref?.();
    });
    // The server starts with the window: attaching must not take the sidebar away from the user,
    // nor ask to save dirty editors (an untitled one would block the attach behind a Save As dialog).
    const ok = await vscode.debug.startDebugging(folder, config, {
      suppressDebugView: true,
      suppressSaveBeforeStart: true,
    });
    if (!ok) {
      this.deps
        .log(server)
        .error(
          `dev: could not attach the ${type} debugger to 127.0.0.1:${port}${type === 'python' ? ' (is the Python extension with debugpy support installed?)' : ''}`,
        );
      if (this.attached.get(server) === entry) this.attached.delete(server);
      return;
    }
    const session = await started;
    if (!session) return;
    if (this.attached.get(server) !== entry) {
      // The server went away while the debugger attached.
      void vscode.debug.stopDebugging(session);
      return;
    }
    entry.session = session;
    this.deps.log(server).info(`dev: ${type} debugger attached on 127.0.0.1:${port} (session "${session.name}")`);
    this.startedEmitter.fire({ server, session });
  }

  private onTerminated(s: vscode.DebugSession): void {
    const server = serverOfSession(s);
    if (!server) return;
    this.selfEnding.delete(server);
    const a = this.attached.get(server);
    if (a?.session?.id === s.id) this.attached.delete(server);
    if (!this.userEnded.delete(server)) return;
    // The user ended the session (the debugger may have killed the process on Stop): the server stops.
    this.deps.log(server).info('dev: the debug session ended; stopping the server');
    void this.deps.host.stop(server);
  }

  /** The live session of a server, for tests and the tree. */
  session(server: string): vscode.DebugSession | undefined {
    return this.attached.get(server)?.session;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
