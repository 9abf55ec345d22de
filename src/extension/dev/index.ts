/**
 * Dev mode: `dev.watch` restarts, `dev.debug` sessions. Wired into main.ts through two
 * ports: the definitions port of the host assembly (core/host-assembly.ts: each admitted list
 * passes through it on its way to the host) and the server loggers (stderr lines are read for
 * the debugger's port).
 */
import type * as vscode from 'vscode';
import type { McpHost } from '../../core/host.js';
import type { ServerDefinition } from '../../core/config/index.js';
import type { Logger } from '../../core/ports.js';
import type { DefinitionsPort } from '../../core/host-assembly.js';
import { DebugSessions } from './debug-sessions.js';
import { DevWatcher } from './watch.js';
import { readSettings } from '../settings.js';

export { DebugSessions } from './debug-sessions.js';
export { DevWatcher } from './watch.js';

export interface DevMode extends vscode.Disposable {
  /** Each list on its way to the host: watchers follow it, debugged servers get their debugger flags. */
  readonly definitions: DefinitionsPort;
  readonly watcher: DevWatcher;
  readonly debug: DebugSessions;
}

/** A logger that also hands each line to `onLine` (the debugger's port comes from stderr). */
export function tapLogger(logger: Logger, onLine: (line: string) => void): Logger {
  const tap =
    (f: (m: string) => void) =>
    (m: string): void => {
      onLine(m);
      f(m);
    };
  return {
    trace: tap((m) => logger.trace(m)),
    debug: tap((m) => logger.debug(m)),
    info: tap((m) => logger.info(m)),
    warn: tap((m) => logger.warn(m)),
    error: tap((m) => logger.error(m)),
  };
}

export function startDevMode(host: McpHost, log: (server: string) => Logger): DevMode {
  const settleMs = (): number => readSettings().devRestartDelayMs;
  const watcher = new DevWatcher({ host, log, settleMs });
  const debug = new DebugSessions({ host, log });
  const prepare = (defs: ServerDefinition[]): ServerDefinition[] => {
    watcher.update(defs);
    return debug.prepare(defs);
  };
  return {
    definitions: (defs) => {
      const needPorts = defs.some((d) => d.config.type === 'stdio' && d.config.dev?.debug?.type === 'python');
      // debugpy needs its port before the server starts; the assembly drops this list if a newer one comes meanwhile.
      return needPorts ? debug.reserve(defs).then(() => prepare(defs)) : prepare(defs);
    },
    watcher,
    debug,
    dispose: () => {
      watcher.dispose();
      debug.dispose();
    },
  };
}
