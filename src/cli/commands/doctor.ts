/**
 * `doctor`: checks every server (config problems, command on PATH, connect result and time,
 * counts) and says what to do about each problem. Exit 0 when all is well, 3 when a server
 * could not connect, else 2 when the config has errors.
 */
import { existsSync } from 'node:fs';
import type { ServerSnapshot } from '../../core/host-api.js';
import type { ConfigProblem, ServerDefinition } from '../../core/config/index.js';
import { findExecutable } from '../../core/connection/index.js';
import { sharedSandboxRuntime } from '../../core/sandbox/index.js';
import { VERSION } from '../../core/version.js';
import type { ParsedArgs } from '../args.js';
import { EXIT, type ExitCode } from '../errors.js';
import { stateError, targetOf, transportOf } from '../format.js';
import { cell } from '../output.js';
import { inputVariableName } from '../ports.js';
import { formatJsonPath, formatProblem, type Session } from '../session.js';
import { heldHint, printJson } from './shared.js';
import { heldForApproval } from '../approvals.js';

interface CommandCheck {
  command: string;
  found: boolean;
  path?: string;
  hint?: string;
}

interface ServerReport {
  name: string;
  scope: string;
  source: { file: string; jsonPath: (string | number)[] };
  transport: string;
  target: string;
  command?: CommandCheck;
  state: string;
  connectMs?: number;
  protocolVersion?: string;
  /** Protocol rules the server broke that the host made do without. */
  protocolWarnings?: string[];
  error?: string;
  hint?: string;
  tools: number;
  resources: number;
  prompts: number;
  stderr?: string;
  /** The managed rule that holds it back: file and JSON path. */
  policyRule?: { file: string; jsonPath: (string | number)[] };
  /** Defined by the folder and not approved: it was not started (the hint says how to approve). */
  awaitingApproval?: true;
}

function checkCommand(def: ServerDefinition, env: Record<string, string | undefined>): CommandCheck | undefined {
  const c = def.config;
  if (c.type !== 'stdio') return undefined;
  try {
    const path = findExecutable(c.command, { platform: process.platform, env: { ...env, ...c.env }, cwd: c.cwd });
    return { command: c.command, found: true, path };
  } catch {
    return {
      command: c.command,
      found: false,
      hint: `Install ${c.command} or put its absolute path in "command"; if it comes from nvm/fnm/volta/asdf, set PATH in the entry's "env".`,
    };
  }
}

/** What to do about a config problem, by its code. */
function problemAdvice(p: ConfigProblem): string | undefined {
  switch (p.code) {
    case 'invalid-json':
      return `Fix the syntax of ${p.file}; nothing in that file is used until it parses.`;
    case 'unresolved-variable': {
      const input = /input:([\w.-]+)/.exec(p.message);
      return input
        ? `Set ${inputVariableName(input[1]!)} in the environment (the CLI does not prompt).`
        : 'Set the variable in the environment or give it a default: ${VAR:-default}.';
    }
    case 'shadowed':
      return 'Rename one of the servers if you meant to keep both.';
    case 'policy-denied':
      return 'Ask your administrator, or remove the server.';
    default:
      return p.severity === 'error' ? `Edit ${formatJsonPath(p.jsonPath) || 'the entry'} in ${p.file}.` : undefined;
  }
}

function report(session: Session, s: ServerSnapshot): ServerReport {
  const def = s.definition;
  const err = stateError(s.state, s.name);
  const r: ServerReport = {
    name: s.name,
    scope: def.source.scope,
    source: { file: def.source.file, jsonPath: def.source.jsonPath },
    transport: transportOf(def),
    target: session.redact(targetOf(def)),
    state: s.state.kind,
    tools: s.tools.length,
    resources: s.resources.length + s.resourceTemplates.length,
    prompts: s.prompts.length,
  };
  const cmd = checkCommand(def, session.io.env);
  if (cmd) r.command = cmd;
  if (s.state.kind === 'connected') {
    r.connectMs = s.state.connectMs;
    if (s.state.protocolVersion) r.protocolVersion = s.state.protocolVersion;
    if (s.state.protocolWarnings) r.protocolWarnings = s.state.protocolWarnings;
  }
  if (def.admission && !def.admission.run && def.admission.rule) r.policyRule = def.admission.rule;
  if (heldForApproval([def]).length) r.awaitingApproval = true;
  if (err) {
    r.error = session.redact(err.message);
    const hint = err.hint ?? (s.state.kind === 'disabled' ? heldHint(s) : undefined);
    if (hint !== undefined) r.hint = session.redact(hint);
  }
  if (s.state.kind === 'failed') {
    const stderr = session.host.recentStderr(s.name).trim();
    if (stderr) r.stderr = session.redact(stderr.split('\n').slice(-10).join('\n'));
  }
  return r;
}

export async function doctor(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const snaps = await session.start(session.config.servers);
  const servers = snaps.map((s) => report(session, s));
  const problems = session.config.problems;
  const failed = servers.filter((s) => s.state === 'failed' || s.state === 'needs-auth');
  const configErrors = problems.filter((p) => p.severity === 'error');
  const code: ExitCode = failed.length ? EXIT.connection : configErrors.length ? EXIT.usage : EXIT.ok;
  const files = (session.config.files ?? []).filter((f) => existsSync(f));
  const sandbox = await sharedSandboxRuntime().check();

  if (a.json) {
    printJson(session, {
      version: VERSION,
      workspace: session.workspace,
      files,
      sandbox,
      problems: problems.map((p) => ({ ...p, message: session.redact(p.message), advice: problemAdvice(p) })),
      servers,
      ok: code === EXIT.ok,
    });
    return code;
  }
  const out = session.io.stdout;
  // First, so a pasted report says which MCP Host wrote it (CHANGELOG.md says what each version changed).
  out(`mcp-host ${VERSION}\n`);
  out(`workspace: ${session.workspace}\n`);
  out(`config files: ${files.length ? files.join(', ') : '(none found)'}\n`);
  out(sandbox.ok ? `sandbox: works here (${sandbox.detail})\n` : `sandbox: unavailable: ${sandbox.message}\n`);
  for (const w of sandbox.ok ? sandbox.weaker : []) out(`  ! weaker than it should be: ${w}\n`);
  out('\n');
  if (problems.length) {
    out(`config problems (${problems.length}):\n`);
    for (const p of problems) {
      out(`  ✗ ${session.redact(formatProblem(p))}\n`);
      const advice = problemAdvice(p);
      if (advice) out(`    → ${advice}\n`);
    }
    out('\n');
  }
  if (servers.length === 0) out('no servers to check.\n');
  for (const s of servers) {
    const ok = s.state === 'connected';
    const mark = ok ? '✓' : s.state === 'disabled' ? '-' : '✗';
    out(
      `${mark} ${cell(s.name)} (${s.transport}, ${s.scope}: ${s.source.file} at ${cell(formatJsonPath(s.source.jsonPath))})\n`,
    );
    out(`    ${cell(s.target)}\n`);
    if (s.command)
      out(
        s.command.found
          ? `    command: ${s.command.path}\n`
          : `    command not found on PATH: ${s.command.command}\n    → ${s.command.hint}\n`,
      );
    if (ok) {
      out(`    connected in ${s.connectMs} ms: ${s.tools} tools, ${s.resources} resources, ${s.prompts} prompts\n`);
      if (s.protocolVersion) out(`    protocol: MCP ${s.protocolVersion}\n`);
      for (const w of s.protocolWarnings ?? []) out(`    ! server broke the protocol: ${w}\n`);
    } else {
      out(`    ${s.state}${s.error ? `: ${s.error}` : ''}\n`);
      // A missing command already got its advice above; the connect error's hint would repeat it.
      // Approval comes first: the missing command is checked again once it may start.
      if (s.hint && (s.command?.found !== false || s.awaitingApproval)) out(`    → ${s.hint}\n`);
      if (s.stderr)
        out(
          `    stderr:\n${s.stderr
            .split('\n')
            .map((l) => `      ${l}`)
            .join('\n')}\n`,
        );
    }
  }
  const okCount = servers.filter((s) => s.state === 'connected').length;
  out(
    `\n${servers.length} server(s): ${okCount} connected, ${failed.length} failed, ${configErrors.length} config error(s)\n`,
  );
  return code;
}
