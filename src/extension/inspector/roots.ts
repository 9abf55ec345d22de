/**
 * Roots offered to servers: the workspace folders, plus folders the user added for one server
 * (to test how a server handles `roots/list_changed`). Extra roots are kept in workspace state.
 */
import * as vscode from 'vscode';
import type { RootsPort } from '../../core/host-api.js';
import { Emitter } from '../../core/events.js';

const KEY = 'mcpHost.extraRoots';

type Extra = Record<string, { uri: string; name?: string }[]>;

export class ServerRoots implements RootsPort, vscode.Disposable {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly state: vscode.Memento) {
    this.sub = vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire());
  }

  private extra(): Extra {
    return this.state.get<Extra>(KEY, {});
  }

  /** Workspace folders first, then this server's own additions (no duplicates). */
  roots(server?: string): { uri: string; name?: string }[] {
    const out: { uri: string; name?: string }[] = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      uri: f.uri.toString(),
      name: f.name,
    }));
    for (const r of server ? (this.extra()[server] ?? []) : []) if (!out.some((o) => o.uri === r.uri)) out.push(r);
    return out;
  }

  extraRoots(server: string): { uri: string; name?: string }[] {
    return this.extra()[server] ?? [];
  }

  async add(server: string, uri: vscode.Uri): Promise<void> {
    const all = this.extra();
    const list = all[server] ?? [];
    if (list.some((r) => r.uri === uri.toString())) return;
    await this.state.update(KEY, {
      ...all,
      [server]: [...list, { uri: uri.toString(), name: uri.path.split('/').pop() || uri.toString() }],
    });
    this.changed.fire();
  }

  async remove(server: string, uri: string): Promise<void> {
    const all = this.extra();
    const list = (all[server] ?? []).filter((r) => r.uri !== uri);
    await this.state.update(KEY, { ...all, [server]: list });
    this.changed.fire();
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
