/**
 * `mcp-host approve [NAME…]`: approves the folder's own servers (`.mcp.json`, `.vscode/mcp.json`)
 * in the store the editor shares (core/config/approvals-file.ts), after printing what each would
 * run. The command line is the consent, so it needs no terminal: the way an agent's user or a
 * script approves a repository they have read. Nothing is started.
 */
import { approvalHashOf, needsApproval, type ServerDefinition } from '../../core/config/index.js';
import type { ParsedArgs } from '../args.js';
import { consentLines } from '../approvals.js';
import { EXIT, usageError, type ExitCode } from '../errors.js';
import type { Session } from '../session.js';
import { printJson } from './shared.js';

/** The named servers (each must be one of the folder's own), or every one not approved yet. */
function targets(session: Session, names: readonly string[]): ServerDefinition[] {
  if (names.length === 0) {
    return session.config.servers.filter(
      (d) => needsApproval(d) && session.approvalStore.status(d.name, approvalHashOf(d)) !== 'approved',
    );
  }
  return [...new Set(names)].map((name) => {
    const def = session.require(name);
    if (!needsApproval(def)) {
      throw usageError(
        `${name} comes from ${def.source.file} (${def.source.scope} scope), which starts without approval`,
        'Only servers defined by the folder (.mcp.json, .vscode/mcp.json) wait for approval.',
      );
    }
    return def;
  });
}

export async function approveCommand(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const defs = targets(session, a.positionals);
  if (defs.length) await session.approvalStore.approve(defs);
  if (a.json) {
    printJson(
      session,
      defs.map((d) => ({ name: d.name, scope: d.source.scope, file: d.source.file })),
    );
    return EXIT.ok;
  }
  const out = session.io.stdout;
  if (defs.length === 0) {
    out(`Nothing to approve: every server ${session.workspace} defines is approved (or it defines none).\n`);
    return EXIT.ok;
  }
  out(`Approved for ${session.workspace}:\n${session.redact(consentLines(defs))}\n`);
  out('They start under mcp-host and in the editor until their definition changes.\n');
  return EXIT.ok;
}
