/**
 * Whether a registry server is already configured, so the browser can mark it as installed. For
 * display only, and lenient on purpose (any argument naming the package, any URL of a remote): a
 * "registryOnly" policy uses the strict launch check of launch-match.ts instead.
 */
import type { ServerConfig } from './types.js';
import type { RegistryServer } from '../registry/schema.js';

function packageMatches(identifier: string, args: readonly string[]): boolean {
  return args.some(
    (a) =>
      a === identifier ||
      a.startsWith(`${identifier}@`) ||
      a.startsWith(`${identifier}==`) ||
      a.startsWith(`${identifier}:`),
  );
}

/** Names of configured servers that run one of this server's packages or remotes. */
export function installedAs(
  server: RegistryServer,
  configured: readonly { name: string; config: ServerConfig }[],
): string[] {
  const out: string[] = [];
  for (const d of configured) {
    const c = d.config;
    if (
      c.type === 'stdio'
        ? server.packages.some((p) => packageMatches(p.identifier, c.args))
        : c.type !== 'inprocess' &&
          server.remotes.some((r) => r.url === c.url || (r.url.includes('{') && urlTemplateMatches(r.url, c.url)))
    )
      out.push(d.name);
  }
  return out;
}

/** "https://x/{tenant}/mcp" matches "https://x/acme/mcp". */
function urlTemplateMatches(template: string, url: string): boolean {
  const re = new RegExp(
    `^${template
      .split(/\{[^}]*\}/)
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );
  return re.test(url);
}
