/**
 * Which servers need the user's approval before they start, and the remembered decisions.
 * Servers defined by the workspace (`.vscode/mcp.json`, `.mcp.json`) can run any command on the
 * user's machine just by opening a folder, so they start only after approval, keyed by name and
 * the definition's `approvalHash`: any change to what would run needs approval again. In an
 * untrusted workspace they do not start at all.
 */
import type { Scope, ServerDefinition } from './types.js';
import type { KeyValueStore } from '../ports.js';

/** Scopes whose servers come from files in the opened folder. */
export const APPROVAL_SCOPES: readonly Scope[] = ['workspace', 'project'];

export function needsApproval(def: Pick<ServerDefinition, 'source'>): boolean {
  return APPROVAL_SCOPES.includes(def.source.scope);
}

/** `changed`: a decision exists for the name, but for a different definition. */
export type ApprovalStatus = 'approved' | 'denied' | 'changed' | 'unknown';

/** Read side of the approval store, used by admission (config/admit.ts). */
export interface ApprovalLookup {
  status(name: string, approvalHash: string): ApprovalStatus;
}

interface Decision {
  hash: string;
  decision: 'approved' | 'denied';
  at: number;
}

/** Where the editor kept decisions in VS Code's workspaceState, before they moved to the shared file. */
export const APPROVALS_KEY = 'mcpHost.serverApprovals';

/**
 * Approval decisions kept in a KeyValueStore: the per-workspace file both front ends read and write
 * (approvals-file.ts), so approving in the editor approves in the CLI and the other way round. A
 * store that can `reload` is re-read before each answer: another process may have decided since.
 */
export class ServerApprovals implements ApprovalLookup {
  /** Writes not yet on disk: re-reading the file meanwhile would forget them. */
  private writing = 0;

  constructor(
    private readonly store: KeyValueStore & {
      reload?(): void;
      modify?(key: string, change: (current: unknown) => unknown): Promise<void>;
    },
    private readonly key = APPROVALS_KEY,
    private readonly now: () => number = Date.now,
  ) {}

  private records(): Record<string, Decision> {
    if (this.writing === 0) this.store.reload?.();
    return parseDecisions(this.store.get<unknown>(this.key));
  }

  status(name: string, approvalHash: string): ApprovalStatus {
    const all = this.records();
    const r = Object.hasOwn(all, name) ? all[name] : undefined;
    if (!r) return 'unknown';
    if (r.hash !== approvalHash) return 'changed';
    return r.decision;
  }

  private async record(defs: readonly ServerDefinition[], decision: 'approved' | 'denied'): Promise<void> {
    const at = this.now();
    await this.write((all) => {
      for (const d of defs) all[d.name] = { hash: approvalHashOf(d), decision, at };
      return true;
    });
  }

  /**
   * Applies `change` to the decisions as stored now. With a store that can `modify`, that is the
   * value on disk under its lock, so decisions another process made meanwhile are kept.
   */
  private async write(change: (all: Record<string, Decision>) => boolean): Promise<void> {
    this.writing++;
    try {
      if (this.store.modify) {
        await this.store.modify(this.key, (current) => {
          const all = parseDecisions(current);
          change(all);
          return all;
        });
      } else {
        const all = this.records();
        if (change(all)) await this.store.update(this.key, all);
      }
    } finally {
      this.writing--;
    }
  }

  /**
   * Takes the decisions an older version kept elsewhere (the editor's workspaceState), once, so
   * nobody is asked again after the move: a name already decided here keeps this store's decision.
   * The caller clears the old place after this resolves. Returns how many were taken.
   */
  async adopt(old: unknown): Promise<number> {
    const older = Object.entries(parseDecisions(old));
    if (!older.some(([name]) => !Object.hasOwn(this.records(), name))) return 0;
    let taken = 0;
    await this.write((all) => {
      taken = 0;
      for (const [name, r] of older) {
        if (Object.hasOwn(all, name)) continue;
        all[name] = r;
        taken++;
      }
      return taken > 0;
    });
    return taken;
  }

  approve(defs: readonly ServerDefinition[]): Promise<void> {
    return this.record(defs, 'approved');
  }

  deny(defs: readonly ServerDefinition[]): Promise<void> {
    return this.record(defs, 'denied');
  }
}

/** The readable records of a stored value; a damaged record is no decision, so the user is asked again. */
function parseDecisions(v: unknown): Record<string, Decision> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  // No prototype: a server named "__proto__" is a record like any other.
  const out = Object.create(null) as Record<string, Decision>;
  for (const [name, r] of Object.entries(v as Record<string, unknown>)) {
    const rec = r as Partial<Decision> | null;
    if (rec && typeof rec.hash === 'string' && (rec.decision === 'approved' || rec.decision === 'denied')) {
      out[name] = { hash: rec.hash, decision: rec.decision, at: typeof rec.at === 'number' ? rec.at : 0 };
    }
  }
  return out;
}

export function approvalHashOf(def: ServerDefinition): string {
  return def.approvalHash ?? def.hash;
}
