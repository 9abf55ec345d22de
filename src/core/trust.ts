/**
 * Which servers need the user's approval before they start, and the remembered decisions.
 * Servers defined by the workspace (`.vscode/mcp.json`, `.mcp.json`) can run any command on the
 * user's machine just by opening a folder, so they start only after approval, keyed by name and
 * the definition's `approvalHash`: any change to what would run needs approval again. In an
 * untrusted workspace they do not start at all.
 */
import { stableHash } from './config/signature.js';
import type { Scope, ServerDefinition } from './config/types.js';
import type { KeyValueStore } from './ports.js';

/** Scopes whose servers come from files in the opened folder. */
export const APPROVAL_SCOPES: readonly Scope[] = ['workspace', 'project'];

export function needsApproval(def: Pick<ServerDefinition, 'source'>): boolean {
  return APPROVAL_SCOPES.includes(def.source.scope);
}

/** `changed`: a decision exists for the name, but for a different definition. */
export type ApprovalStatus = 'approved' | 'denied' | 'changed' | 'unknown';

/** Read side of the approval store, used by the config loader. */
export interface ApprovalLookup {
  status(name: string, approvalHash: string): ApprovalStatus;
}

interface Record_ {
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

  private records(): Record<string, Record_> {
    const v = this.store.get<unknown>(this.key);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Record<string, Record_> = {};
    for (const [name, r] of Object.entries(v as Record<string, unknown>)) {
      const rec = r as Partial<Record_> | null;
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

  /** Forgets the decision for the named servers (all when omitted): they will be asked about again. */
  async forget(names?: readonly string[]): Promise<void> {
    const all = this.records();
    for (const n of names ?? Object.keys(all)) delete all[n];
    await this.store.update(this.key, all);
  }

  /** Definitions waiting for a decision (never decided, or changed since): what to ask the user about. */
  pending(defs: readonly ServerDefinition[]): ServerDefinition[] {
    return defs.filter((d) => {
      if (!needsApproval(d) || d.disabledBy?.reason === 'untrusted') return false;
      const s = this.status(d.name, approvalHashOf(d));
      return s === 'unknown' || s === 'changed';
    });
  }
}

export function approvalHashOf(def: ServerDefinition): string {
  return def.approvalHash ?? def.hash;
}

export interface GateOptions {
  /** false: the workspace is untrusted (VS Code Workspace Trust). Default true. */
  trusted?: boolean;
  /** Without it no approval is required (the CLI: running it in a folder is the user's act). */
  approvals?: ApprovalLookup;
}

/** Why a server of this scope may not start yet; undefined when it may. */
export function gateReason(
  scope: Scope,
  name: string,
  approvalHash: string,
  opts: GateOptions,
): NonNullable<ServerDefinition['disabledBy']> | undefined {
  if (!APPROVAL_SCOPES.includes(scope)) return undefined;
  if (opts.trusted === false) {
    return {
      reason: 'untrusted',
      message: 'This workspace is not trusted, so servers defined in its files (.mcp.json, .vscode/mcp.json) do not start. Trust the workspace to run them.',
    };
  }
  if (!opts.approvals) return undefined;
  switch (opts.approvals.status(name, approvalHash)) {
    case 'approved':
      return undefined;
    case 'denied':
      return { reason: 'not-approved', message: 'You chose not to run this workspace server. Approve it to start it.' };
    case 'changed':
      return { reason: 'not-approved', message: 'This workspace server changed since you approved it; approve it again to start it.' };
    case 'unknown':
      return { reason: 'not-approved', message: 'This server is defined by the workspace; it starts after you approve it.' };
  }
}

/**
 * Applies trust and approval to loaded definitions: gated ones come back with `config.disabled`,
 * `disabledBy` and a new `hash` (so a later approval is seen as a change by the manager).
 */
export function gateDefinitions(defs: readonly ServerDefinition[], opts: GateOptions): ServerDefinition[] {
  return defs.map((d) => {
    if (d.config.disabled) return d;
    const why = gateReason(d.source.scope, d.name, approvalHashOf(d), opts);
    if (!why) return d;
    const config = { ...d.config, disabled: true };
    return { ...d, config, disabledBy: why, hash: stableHash(config) };
  });
}
