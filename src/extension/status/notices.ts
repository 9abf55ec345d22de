/**
 * Which failures deserve a notification, and the de-duplication that keeps a respawn loop from
 * turning into a notification storm: one notice per server and error until the error changes or
 * the server connects. Free of `vscode` so it is unit-tested on plain Node.
 */
import type { ServerSnapshot } from '../../core/host-api.js';
import type { ConfigProblem } from '../../core/config/index.js';

export type NoticeKind = 'spawn' | 'needs-auth' | 'policy-denied';

export interface Notice {
  server: string;
  kind: NoticeKind;
  message: string;
  /** Identity for de-duplication: same key, no second notification. */
  key: string;
}

/** Failures of the process itself (not found, not executable), which only the user can fix. */
const SPAWN_CODES = /spawn|enoent|eacces|not[-_ ]?found|command/i;

export function noticeForServer(s: ServerSnapshot): Notice | undefined {
  const st = s.state;
  if (st.kind === 'needs-auth') return { server: s.name, kind: 'needs-auth', message: st.message, key: 'needs-auth' };
  if (
    st.kind === 'failed' &&
    s.definition.config.type === 'stdio' &&
    (SPAWN_CODES.test(st.error.code) || /command not found|ENOENT|EACCES/.test(st.error.message))
  ) {
    return {
      server: s.name,
      kind: 'spawn',
      message: st.error.message,
      key: `spawn:${st.error.code}:${st.error.message}`,
    };
  }
  return undefined;
}

export function noticeForProblem(p: ConfigProblem): Notice | undefined {
  if (p.code !== 'policy-denied') return undefined;
  const server = p.server ?? p.file;
  return { server, kind: 'policy-denied', message: p.message, key: `policy:${p.message}` };
}

export class NoticeDeduper {
  private readonly shown = new Map<string, string>();

  /**
   * Returns the notice when it is new for this server. `pending` leaves the memory alone, so a
   * server failing the same way on every reconnect attempt is reported once; `connected` or removal
   * clears it.
   */
  take(server: string, notice: Notice | undefined, stateKind: string | undefined): Notice | undefined {
    if (!notice) {
      if (stateKind === undefined || stateKind === 'connected' || stateKind === 'disabled') this.shown.delete(server);
      return undefined;
    }
    if (this.shown.get(server) === notice.key) return undefined;
    this.shown.set(server, notice.key);
    return notice;
  }

  /** Forget policy notices for servers no longer denied. */
  retain(servers: ReadonlySet<string>, prefix: string): void {
    for (const [server, key] of this.shown)
      if (key.startsWith(prefix) && !servers.has(server)) this.shown.delete(server);
  }
}
