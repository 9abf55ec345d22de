/**
 * What an app may ask the host for. An app can do no more than its own server: it names tools
 * only by their name on that server (so another server's tool, or a qualified name, never
 * resolves), only tools the server makes visible to apps, and opens only web and mail links.
 */
import type { HostTool } from '../host-data.js';
import { HostError } from '../errors.js';
import { visibleToApp } from './meta.js';

export function resolveAppToolCall(server: string, tools: HostTool[], name: unknown): HostTool {
  if (typeof name !== 'string' || name === '') throw new HostError('app-refused', 'a tool call needs a tool name');
  const t = tools.find((x) => x.name === name);
  if (!t)
    throw new HostError(
      'app-refused',
      `${server} has no tool "${name}" (an app can only call tools of its own server)`,
    );
  if (!visibleToApp(t)) throw new HostError('app-refused', `"${name}" on ${server} is not available to apps`);
  return t;
}

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The link an app wants opened, parsed; refuses `command:`, `file:`, `vscode:` and the like. */
export function checkAppLink(url: unknown): URL {
  if (typeof url !== 'string') throw new HostError('app-refused', 'a link must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HostError('app-refused', `not a valid link: ${url.slice(0, 200)}`);
  }
  if (!LINK_PROTOCOLS.has(parsed.protocol))
    throw new HostError('app-refused', `apps may open only http, https and mailto links, not ${parsed.protocol}`);
  return parsed;
}

/** Size changes an app reports, bounded (a hostile app must not make the frame absurdly tall). */
export function boundedSize(p: { width?: unknown; height?: unknown }): { width?: number; height?: number } {
  const out: { width?: number; height?: number } = {};
  for (const key of ['width', 'height'] as const) {
    const v = p[key];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[key] = Math.min(Math.ceil(v), 20_000);
  }
  return out;
}
