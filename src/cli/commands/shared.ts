/** Helpers the commands share: starting one or all servers and insisting on a live connection. */
import type { ServerSnapshot } from '../../core/host-api.js';
import { formatJsonPath, heldReason } from '../../core/config/index.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { safeJson, stateError, stateText } from '../format.js';
import { cell } from '../output.js';
import type { Session } from '../session.js';
import { approveHint } from '../approvals.js';

/** Starts one named server; a broken, disabled or unreachable one ends the command with the right code. */
export async function connectOne(session: Session, name: string): Promise<ServerSnapshot> {
  const def = session.require(name);
  session.reportProblems((p) => p.server === name && p.severity === 'warning');
  const [snap] = await session.start([def]);
  return requireConnected(snap!);
}

export function requireConnected(snap: ServerSnapshot): ServerSnapshot {
  const s = snap.state;
  if (s.kind === 'connected') return snap;
  if (s.kind === 'disabled') throw usageError(`server "${snap.name}" is ${stateText(s)}`, heldHint(snap));
  const err = stateError(s, snap.name);
  throw new CliError(EXIT.connection, `server "${snap.name}": ${err?.message ?? stateText(s)}`, err?.hint);
}

/** What to do about a server the host did not run: admission says why (policy, the editor's Disable, or its entry). */
export function heldHint(snap: ServerSnapshot): string {
  const a = snap.definition.admission;
  switch (heldReason(snap.definition)) {
    case 'policy': {
      const rule = a && !a.run ? a.rule : undefined;
      return rule
        ? `The managed policy holds it back: ${rule.file}${rule.jsonPath.length ? ` at ${formatJsonPath(rule.jsonPath)}` : ''}; no user, workspace or CLI option lifts it. Ask your administrator.`
        : 'The managed policy (MCP_HOST_MANAGED_CONFIG) denies this server; ask your administrator to allow it.';
    }
    case 'user-disabled':
      return 'It was disabled for this folder in the editor; enable it there (MCP Host: Enable Server) to use it.';
    case 'not-approved':
      return approveHint(snap.name);
    default:
      return 'Remove "disabled": true from its entry to use it.';
  }
}

/** Starts every configured server (problems to stderr); returns their snapshots in config order. */
export async function connectAll(session: Session): Promise<ServerSnapshot[]> {
  session.reportProblems();
  return session.start(session.config.servers);
}

/** Tells stderr about servers that did not connect, so an empty listing is never a mystery. */
export function reportUnavailable(session: Session, snaps: ServerSnapshot[]): void {
  for (const s of snaps) {
    if (s.state.kind === 'connected') continue;
    session.io.stderr(`mcp-host: ${cell(s.name)}: ${stateText(s.state)}\n`);
  }
}

/** Parses `--args`: a JSON object, or a usage error saying what is wrong with it. */
export function parseArgsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usageError(`--args is not valid JSON: ${(err as Error).message}`, `Example: --args '{"message": "hello"}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw usageError(
      `--args must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
      `Example: --args '{"message": "hello"}'`,
    );
  }
  return value as Record<string, unknown>;
}

export function printJson(session: Session, value: unknown): void {
  session.io.stdout(`${safeJson(value)}\n`);
}
