/**
 * MCP Host never connects to its own gateway: a project `.mcp.json` written for agents
 * (`"url": "${MCP_HOST_GATEWAY_URL}"`) is read by MCP Host too, and connecting to it would loop
 * every server back into itself. Admission (admit.ts) holds such entries back with a reason.
 */
import type { ServerDefinition } from './types.js';

function sameEndpoint(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const loop = (h: string): string => (h === 'localhost' || h === '[::1]' ? '127.0.0.1' : h);
    return (
      loop(x.hostname) === loop(y.hostname) &&
      x.port === y.port &&
      x.pathname.replace(/\/+$/, '') === y.pathname.replace(/\/+$/, '')
    );
  } catch {
    return false;
  }
}

/** True for a stdio entry that runs `mcp-host serve` (the gateway over stdio, which would read this config again). */
export function isServeCommand(def: ServerDefinition): boolean {
  const c = def.config;
  if (c.type !== 'stdio') return false;
  const words = [c.command, ...(c.args ?? [])].map((w) => w.split(/[\\/]/).pop() ?? w);
  const i = words.findIndex((w) => w === 'mcp-host' || w === 'mcp-host.cmd' || w === 'cli.js');
  return i >= 0 && words.slice(i + 1).includes('serve');
}

/** True when `def` points at one of `gatewayUrls` or runs `mcp-host serve`: admission holds it back. */
export function pointsAtOwnGateway(def: ServerDefinition, gatewayUrls: readonly string[]): boolean {
  const c = def.config;
  return (
    ((c.type === 'http' || c.type === 'sse') && gatewayUrls.some((u) => sameEndpoint(c.url, u))) || isServeCommand(def)
  );
}
