/**
 * Dev mode: `dev.watch` restarts, `dev.debug` sessions. Wired into main.ts through two
 * small hooks: the host the config controller sees (definitions pass through `prepare` on their
 * way in) and the server loggers (stderr lines are read for the debugger's port).
 */
import type * as vscode from 'vscode';
import type { McpHost } from '../../core/host.js';
import type { ServerDefinition } from '../../core/config/index.js';
import type { Logger } from '../../core/ports.js';
import { DebugSessions } from './debug-sessions.js';
import { DevWatcher } from './watch.js';
import { readSettings } from '../settings.js';

export { DebugSessions } from './debug-sessions.js';
export { DevWatcher } from './watch.js';

export interface DevMode extends vscode.Disposable {
  /** The host for the config controller: `setDefinitions` updates watchers and debugger flags first. */
  readonly host: McpHost;
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
  let generation = 0;
  const apply = (defs: ServerDefinition[]): void => {
    watcher.update(defs);
    host.setDefinitions(debug.prepare(defs));
  };
  // Only setDefinitions changes; everything else is the real host (a Proxy keeps the class's methods bound).
  const hooked = new Proxy(host, {
    get(target, prop) {
      if (prop === 'setDefinitions') {
        return (defs: ServerDefinition[]): void => {
          const mine = ++generation;
          const needPorts = defs.some((d) => d.config.type === 'stdio' && d.config.dev?.debug?.type === 'python');
          if (!needPorts) return apply(defs);
          // debugpy needs its port before the server starts; a newer list wins if one comes meanwhile.
          void debug.reserve(defs).then(() => mine === generation && apply(defs));
        };
      }
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return {
    host: hooked,
    watcher,
    debug,
    dispose: () => {
      watcher.dispose();
      debug.dispose();
    },
  };
}
