import * as vscode from 'vscode';
import {
  approvalHashOf,
  type ApprovalStatus,
  consentSummary,
  type ServerApprovals,
  type ServerDefinition,
} from '../../core/config/index.js';
import type { Approvals } from './controller.js';

/**
 * What a definition would run, as the prompt lists it: the core's consent summary (command lines,
 * headersHelper, envFile, sandbox widening; secrets redacted), the same lines the CLI asks with.
 */
export function describeDefinition(def: ServerDefinition, redact: (t: string) => string): string {
  const [first, ...rest] = consentSummary(def).map(redact);
  return [`• ${first}`, ...rest].join('\n');
}

/**
 * The single modal prompt before project/workspace servers run, over the decisions
 * core/config/approvals.ts keeps in the per-workspace file the CLI shares (name + approval hash). "Don't Allow" is remembered for that
 * exact definition, so reloads do not ask again; Start Server asks anew. Prompts are serialised:
 * a second batch waits for the first answer instead of stacking modals.
 */
export class TrustPrompter implements Approvals {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly approvals: ServerApprovals,
    private readonly redact: (t: string) => string,
  ) {}

  status(name: string, approvalHash: string): ApprovalStatus {
    return this.approvals.status(name, approvalHash);
  }

  approve(defs: ServerDefinition[]): Promise<void> {
    return this.approvals.approve(defs);
  }

  review(defs: ServerDefinition[], opts: { force: boolean }): Promise<boolean> {
    const next = this.queue.then(() => this.ask(defs, opts));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async ask(all: ServerDefinition[], opts: { force: boolean }): Promise<boolean> {
    const defs = all.filter((d) => {
      const s = this.approvals.status(d.name, approvalHashOf(d));
      return s === 'unknown' || s === 'changed' || (opts.force && s === 'denied');
    });
    if (defs.length === 0) return false;
    const changed = defs.some((d) => this.approvals.status(d.name, approvalHashOf(d)) === 'changed');
    const message =
      defs.length === 1
        ? `Allow the MCP server "${defs[0].name}" defined by this workspace to run?`
        : `Allow ${defs.length} MCP servers defined by this workspace to run?`;
    const detail = [
      defs.map((d) => describeDefinition(d, this.redact)).join('\n'),
      '',
      changed ? 'Some of these changed since you last allowed them.' : '',
      'Local servers run these commands with your permissions. You will be asked again if a definition changes.',
    ]
      .filter((l, i) => l !== '' || i === 1)
      .join('\n');
    const pick = await vscode.window.showWarningMessage(message, { modal: true, detail }, 'Allow', "Don't Allow");
    if (pick === 'Allow') {
      await this.approvals.approve(defs);
      return true;
    }
    if (pick === "Don't Allow") await this.approvals.deny(defs);
    return false;
  }
}
