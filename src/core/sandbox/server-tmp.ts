/**
 * Each sandboxed server's own temporary folder (its TMPDIR), inside one folder of this process's
 * that every sandbox hides: a server reads and writes its own and cannot read another's. A plain
 * `mkdtemp` under the system's temp folder was readable by every other sandboxed server, which
 * sees `/tmp` like everyone else does.
 */
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class ServerTmpDirs {
  private root: string | undefined;

  /** The folder every wrap hides (denyRead); the runtime re-binds each server's own inside it. */
  hidden(): string {
    // mkdtemp makes it 0700: other users cannot list it either.
    this.root ??= mkdtempSync(join(tmpdir(), 'mcp-host-sandboxes-'));
    return this.root;
  }

  /** A new folder for one server, removed by the caller when its process is gone. */
  make(): string {
    return mkdtempSync(join(this.hidden(), 'server-'));
  }

  /** Removes the shared folder once no server's folder is left in it. */
  dispose(): void {
    if (!this.root) return;
    try {
      rmdirSync(this.root);
      this.root = undefined;
    } catch {
      // A server's folder is still there (its release comes later); it removes only its own.
    }
  }
}
