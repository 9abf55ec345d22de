/**
 * Sign-in from the agent. A server that needs authentication has no tools to show, so an agent
 * would never learn it is there; instead it appears as one tool, `<server>__authenticate`, which
 * starts the host's own sign-in (the editor's browser hand-off; for `mcp-host serve`, a URL the
 * agent passes on to the user) and reports when the server is connected. Its real tools then
 * replace the stand-in, and agents hear `tools/list_changed`.
 */
import type { ServerSnapshot } from '../host-api.js';
import type { McpHost } from '../host.js';
import { AgentToolNames } from './agent-names.js';
import type { ExposedTool, ExposureFilter } from './catalog.js';

/** How the front end signs in to a server on an agent's behalf. */
export interface AgentSignIn {
  /**
   * Starts the sign-in to `server`, or joins one under way. `url`: the page the user must open
   * (when the front end cannot open it itself); `done` settles when the sign-in is over and the
   * server has been asked to reconnect.
   */
  start(server: string, signal: AbortSignal): Promise<{ url?: string; done: Promise<void> }>;
}

export const SIGN_IN_TOOL = 'authenticate';

/** How long a call waits for the server to connect once the sign-in is over. */
const CONNECT_DEADLINE_MS = 60_000;

/**
 * One stand-in tool per exposed server that needs sign-in; `taken` holds the names already used.
 * `connecting`: servers that needed sign-in and are now connecting: their stand-in stays until
 * they connect, so agents see it replaced by the tools in one change, never an empty list between.
 */
export function signInTools(
  snapshots: readonly ServerSnapshot[],
  filter: ExposureFilter,
  taken: ReadonlySet<string>,
  connecting: ReadonlySet<string> = new Set(),
): ExposedTool[] {
  const names = new AgentToolNames(taken);
  const out: ExposedTool[] = [];
  for (const s of snapshots) {
    const waiting = s.state.kind === 'needs-auth' || (s.state.kind === 'pending' && connecting.has(s.name));
    if (!waiting || !(filter.isServerExposed?.(s.name) ?? true)) continue;
    const name = names.take(s.name, SIGN_IN_TOOL);
    const tool: ExposedTool = {
      name,
      signIn: true,
      tool: {
        server: s.name,
        name: SIGN_IN_TOOL,
        qualifiedName: name,
        title: `Sign in to ${s.name}`,
        description:
          `The MCP server "${s.name}" needs the user to sign in before its tools can be used. ` +
          'Call this to start the sign-in; once it completes, the server’s tools are listed in place of this one.',
        inputSchema: { type: 'object', properties: {} },
        // Signing in changes the host's state (a stored sign-in), deletes nothing, and reaches the server's
        // authorization server; asking twice joins the sign-in under way.
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      },
    };
    // A profile's rules apply to the stand-in as to any tool (a read-only profile offers no sign-in).
    if (filter.isToolEnabled && !filter.isToolEnabled(s.name, SIGN_IN_TOOL)) continue;
    if (filter.acceptsTool && !filter.acceptsTool(tool.tool)) continue;
    out.push(tool);
  }
  return out;
}

type Text = { content: { type: 'text'; text: string }[]; isError?: true };
const say = (text: string, isError = false): Text => ({
  content: [{ type: 'text', text }],
  ...(isError ? { isError: true as const } : {}),
});

/** Resolves when `server` is connected; rejects when it fails, or at the deadline. */
function whenConnected(host: McpHost, server: string, signal: AbortSignal): Promise<ServerSnapshot> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const s = host.server(server);
      if (s?.state.kind === 'connected') {
        finish();
        resolve(s);
        return true;
      }
      if (s?.state.kind === 'failed') {
        finish();
        reject(new Error(`${server} did not connect after the sign-in: ${s.state.error.message}`));
        return true;
      }
      return false;
    };
    const sub = host.onDidChangeServer((e) => {
      if (e.name === server) check();
    });
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`${server} did not connect within ${CONNECT_DEADLINE_MS / 1000} s of the sign-in`));
    }, CONNECT_DEADLINE_MS);
    const onAbort = (): void => {
      finish();
      reject(new Error('cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    function finish(): void {
      sub.dispose();
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    check();
  });
}

/** The result of an agent's call to `<server>__authenticate`. */
export async function callSignIn(
  host: McpHost,
  signIn: AgentSignIn,
  server: string,
  signal: AbortSignal,
): Promise<Text> {
  const kind = host.server(server)?.state.kind;
  if (kind === 'connected')
    return say(`${server} is connected; its tools are listed (the stand-in is gone from the next tools/list).`);
  try {
    if (kind === 'pending') {
      // Signed in already (the stand-in stays while the server connects): wait for it, no second sign-in.
      const s = await whenConnected(host, server, signal);
      return say(`Signed in to ${server}; it is connected and offers ${s.tools.length} tool(s), now in the tool list.`);
    }
    const { url, done } = await signIn.start(server, signal);
    if (url) {
      // Headless: the user signs in elsewhere; the tool list changes when the server connects.
      done.catch(() => undefined);
      return say(
        `Ask the user to open this URL in a browser to sign in to ${server}:\n\n${url}\n\n` +
          `When the sign-in completes, ${server} connects and its tools replace this one (the tool list changes). ` +
          'Call this tool again to check.',
      );
    }
    await done;
    const s = await whenConnected(host, server, signal);
    return say(`Signed in to ${server}; it is connected and offers ${s.tools.length} tool(s), now in the tool list.`);
  } catch (err) {
    return say(`Sign-in to ${server} did not complete: ${err instanceof Error ? err.message : String(err)}`, true);
  }
}
