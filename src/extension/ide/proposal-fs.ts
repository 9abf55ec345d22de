/**
 * An in-memory file system for the right side of our diff editors, so the user can edit a
 * proposal before accepting it without anything touching disk until Accept.
 */
import * as vscode from 'vscode';

export const PROPOSAL_SCHEME = 'mcp-host-diff';

export class ProposalFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  set(uri: vscode.Uri, text: string): void {
    this.files.set(uri.path, { data: Buffer.from(text, 'utf8'), mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  text(uri: vscode.Uri): string | undefined {
    const f = this.files.get(uri.path);
    return f ? Buffer.from(f.data).toString('utf8') : undefined;
  }

  drop(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(uri.path);
    if (f) return { type: vscode.FileType.File, ctime: f.mtime, mtime: f.mtime, size: f.data.byteLength };
    if ([...this.files.keys()].some((k) => k.startsWith(uri.path.endsWith('/') ? uri.path : `${uri.path}/`))) {
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {}

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    // Saving an edited proposal keeps the edit here; nothing reaches disk before Accept.
    if (!this.files.has(uri.path)) throw vscode.FileSystemError.NoPermissions('Proposals cannot be created here');
    this.files.set(uri.path, { data: content, mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('Proposals cannot be renamed');
  }
}
