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

export const APPROVALS_KEY = 'mcpHost.serverApprovals';

/** Approval decisions kept in a KeyValueStore (VS Code workspaceState: one set per workspace). */
export class ServerApprovals implements ApprovalLookup {
  constructor(
    private readonly store: KeyValueStore,
    private readonly key = APPROVALS_KEY,
    private readonly now: () => number = Date.now,
  ) {}

  private records(): Record<string, Decision> {
    const v = this.store.get<unknown>(this.key);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Record<string, Decision> = {};
    for (const [name, r] of Object.entries(v as Record<string, unknown>)) {
      const rec = r as Partial<Decision> | null;
      // Tolerate a damaged store: an unreadable record is no decision, so the user is asked again.
      if (rec && typeof rec.hash === 'string' && (rec.decision === 'approved' || rec.decision === 'denied')) {
        out[name] = { hash: rec.hash, decision: rec.decision, at: typeof rec.at === 'number' ? rec.at : 0 };
      }
    }
    return out;
  }

  status(name: string, approvalHash: string): ApprovalStatus {
    const all = this.records();
    const r = Object.hasOwn(all, name) ? all[name] : undefined;
    if (!r) return 'unknown';
    if (r.hash !== approvalHash) return 'changed';
    return r.decision;
  }

  private async record(defs: readonly ServerDefinition[], decision: 'approved' | 'denied'): Promise<void> {
    const all = this.records();
    for (const d of defs) all[d.name] = { hash: approvalHashOf(d), decision, at: this.now() };
    await this.store.update(this.key, all);
  }

  approve(defs: readonly ServerDefinition[]): Promise<void> {
    return this.record(defs, 'approved');
  }

  deny(defs: readonly ServerDefinition[]): Promise<void> {
    return this.record(defs, 'denied');
  }
}

export function approvalHashOf(def: ServerDefinition): string {
  return def.approvalHash ?? def.hash;
}
