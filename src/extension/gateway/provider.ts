/**
 * Registers the gateway with VS Code's own MCP support (chat / Copilot agent mode), so it sees
 * every MCP Host server as tools, with our approvals and sign-ins. The API
 * (`vscode.lm.registerMcpServerDefinitionProvider`, `vscode.McpHttpServerDefinition`) first
 * shipped in VS Code 1.101; `engines.vscode` stays at ^1.100.0, so it is looked up at run time and
 * nothing happens on an editor without it.
 */
import * as vscode from 'vscode';

/** The id declared under `contributes.mcpServerDefinitionProviders` in package.json. */
export const PROVIDER_ID = 'mcpHost.gateway';

interface McpProviderApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: {
      onDidChangeMcpServerDefinitions?: vscode.Event<void>;
      provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[];
      resolveMcpServerDefinition?(server: unknown, token: vscode.CancellationToken): unknown;
    },
  ): vscode.Disposable;
}

type HttpDefinitionCtor = new (
  label: string,
  uri: vscode.Uri,
  headers?: Record<string, string>,
  version?: string,
) => unknown;

/** First VS Code release where the API is final; before it (1.100) it exists as a proposal that throws when called. */
const FIRST_VERSION = [1, 101];

function atLeast(version: string, min: number[]): boolean {
  const parts = version.split(/[.-]/).map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < min.length; i++) {
    const v = parts[i] ?? 0;
    if (v !== min[i]) return v > min[i]!;
  }
  return true;
}

/** True when this editor has the provider API (final, not the 1.100 proposal). */
export function hasProviderApi(): boolean {
  const api = vscode as unknown as { lm?: Partial<McpProviderApi>; McpHttpServerDefinition?: unknown };
  return (
    atLeast(vscode.version, FIRST_VERSION) &&
    typeof api.lm?.registerMcpServerDefinitionProvider === 'function' &&
    typeof api.McpHttpServerDefinition === 'function'
  );
}

/**
 * Offers the gateway as one HTTP server definition while it runs (none while it is off).
 * Returns undefined when the editor has no such API.
 */
export function registerGatewayProvider(
  state: { endpoint(): { url: string; token: string } | undefined; onDidChange: vscode.Event<void> },
  version: string | (() => string),
  /** Fires when `version` may have changed (what the gateway offers changed). */
  onDidChangeVersion?: vscode.Event<void>,
): vscode.Disposable | undefined {
  if (!hasProviderApi()) return undefined;
  const api = vscode as unknown as { lm: McpProviderApi; McpHttpServerDefinition: HttpDefinitionCtor };
  const Definition = api.McpHttpServerDefinition;
  // Defensive: an editor build that still gates the API behind a proposal throws here; activation must go on.
  try {
    return register(api, Definition, state, typeof version === 'string' ? () => version : version, onDidChangeVersion);
  } catch {
    return undefined;
  }
}

type Endpoint = { url: string; token: string };

function register(
  api: { lm: McpProviderApi },
  Definition: HttpDefinitionCtor,
  state: { endpoint(): Endpoint | undefined; onDidChange: vscode.Event<void> },
  version: () => string,
  onDidChangeVersion: vscode.Event<void> | undefined,
): vscode.Disposable {
  const define = (ep: Endpoint): unknown =>
    new Definition(LABEL, vscode.Uri.parse(ep.url), { Authorization: `Bearer ${ep.token}` }, version());
  // `state.onDidChange` also fires for every agent that connects or leaves, VS Code's own client
  // among them: re-announcing then would make VS Code re-read the definitions on each of its own
  // connects. Only a new endpoint (the gateway started, stopped or restarted) is news to it.
  const changed = new vscode.EventEmitter<void>();
  let last = `${key(state.endpoint())} ${version()}`;
  const announce = (): void => {
    const now = `${key(state.endpoint())} ${version()}`;
    if (now === last) return;
    last = now;
    changed.fire();
  };
  const sub = state.onDidChange(announce);
  const versionSub = onDidChangeVersion?.(announce);
  const registration = api.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const ep = state.endpoint();
      // The token is handed to the editor's own MCP client in memory; it is never written anywhere.
      return ep ? [define(ep)] : [];
    },
    // VS Code calls this just before it connects, with the definition it last read. After a
    // gateway restart that one holds a dead port and token: answer with the live endpoint, or
    // with nothing while the gateway is off (VS Code then does not start it).
    resolveMcpServerDefinition: () => {
      const ep = state.endpoint();
      return ep ? define(ep) : undefined;
    },
  });
  return vscode.Disposable.from(registration, sub, changed, ...(versionSub ? [versionSub] : []));
}

/** The label VS Code shows (MCP: List Servers) and keys the definition by. */
export const LABEL = 'MCP Host';

function key(ep: Endpoint | undefined): string {
  return ep ? `${ep.url} ${ep.token}` : '';
}
