/**
 * Approval of the folder's own servers (`.mcp.json`, `.vscode/mcp.json`) in the CLI. Typing
 * `mcp-host list` in a cloned repository must not run the commands it names, so those servers start
 * only once approved, in the same per-workspace store the editor uses (core/config/approvals-file.ts,
 * keyed by the definition's approval hash): approving in one front end approves in the other. On a
 * terminal the CLI asks, listing what the editor's prompt lists (core/config/consent-summary.ts);
 * without one (an agent, a pipe) it starts none of them and says how to approve.
 */
import {
  approvalHashOf,
  type ApprovalPort,
  type ApprovalStatus,
  awaitingApproval,
  consentSummary,
  type ServerApprovals,
  type ServerDefinition,
} from '../core/config/index.js';
import type { Io } from './io.js';

/** `MCP_HOST_ALLOW_PROJECT_SERVERS=1`: the environment's form of `--allow-project-servers` (CI, a trusted checkout). */
export const ALLOW_ENV = 'MCP_HOST_ALLOW_PROJECT_SERVERS';

export function allowsProjectServers(env: Record<string, string | undefined>): boolean {
  return /^(1|true|yes)$/i.test(env[ALLOW_ENV]?.trim() ?? '');
}

/** What to tell someone whose server is held for approval. */
export function approveHint(name: string): string {
  return (
    `Review and approve it with: mcp-host approve ${name} (or run the command on a terminal to be asked). ` +
    `--allow-project-servers or ${ALLOW_ENV}=1 starts the folder's servers without asking.`
  );
}

/** The definitions admission holds until they are approved (never decided, changed since, or refused). */
export function heldForApproval(defs: readonly ServerDefinition[]): ServerDefinition[] {
  return defs.filter((d) => d.admission && !d.admission.run && d.admission.reason === 'not-approved');
}

/** A held server's state as `list` shows it: waiting (and why) or refused. */
export function approvalState(def: ServerDefinition, store: ServerApprovals): string {
  const status = store.status(def.name, approvalHashOf(def));
  if (status === 'denied') return 'not approved (you declined it; mcp-host approve lifts that)';
  return status === 'changed' ? 'awaiting approval (changed since you approved it)' : 'awaiting approval';
}

/** The note under `list`: which servers wait and how to approve them. */
export function approvalNote(held: readonly ServerDefinition[]): string {
  if (held.length === 0) return '';
  return (
    `\n${held.length === 1 ? '1 server' : `${held.length} servers`} defined by this folder did not start, held for your approval: ${held.map((d) => d.name).join(', ')}\n` +
    `  Review and approve with: mcp-host approve [NAME...] (or run the command on a terminal to be asked);\n` +
    `  --allow-project-servers or ${ALLOW_ENV}=1 starts them without asking.\n`
  );
}

/** The registry's port over the shared store. */
export class CliApprovals implements ApprovalPort {
  constructor(readonly store: ServerApprovals) {}

  status(name: string, approvalHash: string): ApprovalStatus {
    return this.store.status(name, approvalHash);
  }

  /**
   * The registry asks after every admission (the editor's modal); here nothing is asked then, since
   * most commands (add, search, auth) start no server: `askToStart` asks when a command is about to.
   */
  review(): Promise<boolean> {
    return Promise.resolve(false);
  }

  approve(defs: ServerDefinition[]): Promise<void> {
    return this.store.approve(defs);
  }
}

/** The lines that say what each definition would run, as the editor's prompt lists them. */
export function consentLines(defs: readonly ServerDefinition[]): string {
  return defs
    .map((d) =>
      consentSummary(d)
        .map((l, i) => (i === 0 ? `  • ${l}` : `  ${l}`))
        .join('\n'),
    )
    .join('\n');
}

/**
 * Of `defs` (what a command is about to start), asks about those awaiting approval when a person
 * is at the terminal. "y" approves, "n" refuses (remembered, as the editor's "Don't Allow"; `mcp-host
 * approve` lifts it); anything else holds them for this run only. Returns whether anything was decided.
 */
export async function askToStart(io: Io, approvals: CliApprovals, defs: readonly ServerDefinition[]): Promise<boolean> {
  const awaiting = awaitingApproval(defs);
  const terminal = io.terminal;
  if (awaiting.length === 0 || !terminal?.interactive) return false;
  const changed = awaiting.some((d) => approvals.status(d.name, approvalHashOf(d)) === 'changed');
  const what = awaiting.length === 1 ? `"${awaiting[0]!.name}"` : `${awaiting.length} servers`;
  io.stderr(
    [
      `mcp-host: this folder defines ${what} that would run on your machine:`,
      consentLines(awaiting),
      ...(changed ? ['Some of these changed since you last allowed them.'] : []),
      'Local servers run these commands with your permissions. You are asked again when a definition changes.',
      '',
    ].join('\n'),
  );
  const answer = (await terminal.question(`Allow ${what} to run? [y/n] `))?.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') await approvals.store.approve(awaiting);
  else if (answer === 'n' || answer === 'no') await approvals.store.deny(awaiting);
  else {
    io.stderr('mcp-host: no answer; not starting them this time.\n');
    return false;
  }
  return true;
}
