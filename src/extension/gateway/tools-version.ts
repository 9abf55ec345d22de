/**
 * The `version` of the gateway's server definition. VS Code keeps the tool list of a server it is
 * not running and trusts it while the definition's version (its cache nonce) is unchanged; with
 * the extension's version alone, tools that came or went since would go unnoticed until chat
 * started the gateway again (`chat.mcp.autostart: newAndOutdated` starts only outdated ones).
 * So the version carries a digest of what the gateway offers.
 */
import { createHash } from 'node:crypto';
import type { ServerSnapshot } from '../../core/host-api.js';
import { buildCatalog, type ExposureFilter } from '../../core/gateway/index.js';

export function gatewayToolsVersion(
  extensionVersion: string,
  servers: readonly ServerSnapshot[],
  filter: ExposureFilter,
): string {
  const tools = buildCatalog(servers, filter).tools.map((t) => [
    t.name,
    t.tool.description,
    t.tool.inputSchema,
    t.tool.annotations,
  ]);
  const digest = createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 12);
  return `${extensionVersion}+tools.${digest}`;
}
