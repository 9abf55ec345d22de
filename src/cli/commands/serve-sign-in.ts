/**
 * `<server>__authenticate` for `mcp-host serve`: there is no editor to open a browser in, and the
 * agent's user may be elsewhere, so the sign-in starts here (loopback redirect, tokens into the
 * CLI's own store) and its URL goes back to the agent to pass on. When the redirect arrives the
 * server restarts with the new tokens and agents hear `tools/list_changed`.
 */
import type { AgentSignIn } from '../../core/gateway/index.js';
import type { Logger } from '../../core/ports.js';
import { createCliAuth } from '../host-auth.js';
import type { Session } from '../session.js';

export function serveSignIn(session: Session, logger: Logger): AgentSignIn {
  /** Sign-ins under way, so a second call hands out the same URL instead of a second flow. */
  const pending = new Map<string, { url?: string; done: Promise<void> }>();
  return {
    async start(server) {
      const running = pending.get(server);
      if (running) return running;
      const def = session.require(server);
      const auth = createCliAuth(session.io, { browser: { open: () => Promise.resolve(false) } });
      let gotUrl: (url: string) => void = () => {};
      const url = new Promise<string>((resolve) => (gotUrl = resolve));
      const done = auth
        .authenticate(def, { continueWithoutBrowser: true, onAuthorizationUrl: (u) => gotUrl(u) })
        .then(() => session.host.restart(server))
        .then(
          () => logger.info(`serve: signed in to ${server}`),
          (err: unknown) => {
            logger.warn(`serve: sign-in to ${server} failed: ${err instanceof Error ? err.message : String(err)}`);
            throw err;
          },
        )
        .finally(() => pending.delete(server));
      // Client credentials need no browser: the flow ends without a URL.
      const first = await Promise.race([url, done.then(() => undefined)]);
      const entry = first !== undefined ? { url: first, done } : { done };
      if (first !== undefined) pending.set(server, entry);
      return entry;
    },
  };
}
