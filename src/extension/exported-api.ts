import { visibleToModel } from '../core/apps/index.js';
import * as vscode from 'vscode';
import type { CallOptions, HostTool, ToolCallResult } from '../core/host-api.js';
import type { McpHost } from '../core/host.js';
import type { HeldReason, InProcessServerConfig, Scope } from '../core/config/index.js';
import type { StateKind } from '../core/connection/index.js';
import type { ToolFilter } from '../core/tools/index.js';
import type { ConfigController } from './config/controller.js';

/** A server another extension registers at run time (dynamic scope); same fields as a `.mcp.json` entry. */
export type DynamicServerEntry =
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string; timeout?: number }
  | { type: 'sse' | 'http' | 'ws'; url: string; headers?: Record<string, string>; timeout?: number }
  | Omit<InProcessServerConfig, 'disabled'>;

/** A server as other extensions see it: no env, headers or command lines (they may hold secrets). */
export interface ApiServer {
  name: string;
  scope: Scope;
  transport: string;
  state: StateKind;
  /** Set when held back by the editor: not trusted, not approved, or disabled for this workspace. */
  /** Why admission holds it back (`config`: disabled in its file, `policy`: the managed policy denies it). */
  heldBack?: HeldReason;
  error?: string;
  serverInfo?: { name: string; version: string };
  tools: number;
  resources: number;
  prompts: number;
}

/** What `activate` returns: `vscode.extensions.getExtension('mcp-host.mcp-host').exports`. */
export interface McpHostApi {
  readonly apiVersion: 1;
  /** Adds (or replaces) a dynamic server; it starts in the background. Dispose to remove it. */
  registerServer(name: string, entry: DynamicServerEntry): vscode.Disposable;
  /** Removes a dynamic server registered earlier; false when there was none by that name. */
  unregisterServer(name: string): boolean;
  listServers(): ApiServer[];
  /** Tools of connected servers (all, or one server's). */
  listTools(server?: string): HostTool[];
  callTool(server: string, tool: string, args: Record<string, unknown>, opts?: CallOptions): Promise<ToolCallResult>;
  /** Resolves once every server has settled (connected, failed, needs-auth or disabled). */
  whenSettled(): Promise<void>;
  /** Fires with the server's name whenever its state or lists change, or it is added or removed. */
  readonly onDidChangeServers: vscode.Event<{ name: string; removed: boolean }>;
}

export function createApi(
  host: McpHost,
  controller: ConfigController,
  ready: Promise<void>,
  toolFilter?: ToolFilter,
): McpHostApi & vscode.Disposable {
  const emitter = new vscode.EventEmitter<{ name: string; removed: boolean }>();
  const sub = host.onDidChangeServer((e) => emitter.fire({ name: e.name, removed: e.snapshot === undefined }));
  return {
    apiVersion: 1,
    registerServer(name, entry) {
      if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) {
        throw new Error(`invalid server name ${JSON.stringify(name)}: use letters, digits, ".", "_" and "-"`);
      }
      controller.registerDynamic(name, entry);
      return new vscode.Disposable(() => controller.unregisterDynamic(name));
    },
    unregisterServer: (name) => controller.unregisterDynamic(name),
    listServers: () =>
      host.servers().map((s) => {
        const st = s.state;
        return {
          name: s.name,
          scope: s.definition.source.scope,
          transport: s.definition.config.type,
          state: st.kind,
          heldBack: controller.gate(s.name),
          error: st.kind === 'failed' ? st.error.message : st.kind === 'needs-auth' ? st.message : undefined,
          serverInfo:
            st.kind === 'connected' ? { name: st.serverInfo.name, version: st.serverInfo.version } : undefined,
          tools: s.tools.length,
          resources: s.resources.length,
          prompts: s.prompts.length,
        };
      }),
    // App-only tools (MCP Apps) are not for other extensions' agents, nor tools the user switched off in the tree.
    listTools: (server) => {
      const all = host
        .servers()
        .filter((s) => server === undefined || s.name === server)
        .flatMap((s) => s.tools.filter(visibleToModel));
      return toolFilter ? toolFilter.filter(all) : all;
    },
    callTool: async (server, tool, args, opts) => {
      const t = host.server(server)?.tools.find((x) => x.name === tool || x.qualifiedName === tool);
      if (t && toolFilter && !toolFilter.isEnabled(server, t.name)) {
        throw new Error(
          `${server}: tool "${t.name}" is disabled in this workspace (tick it in the MCP Host view to enable it).`,
        );
      }
      return host.callTool(server, tool, args, opts);
    },
    async whenSettled() {
      await ready;
      await host.whenSettled();
    },
    onDidChangeServers: emitter.event,
    dispose() {
      sub.dispose();
      emitter.dispose();
    },
  };
}
