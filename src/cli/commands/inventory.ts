/** `list`, `tools`, `resources`, `prompts`: what the configured servers offer. */
import { visibleToModel } from '../../core/app-meta.js';
import type { ServerSnapshot } from '../../core/host-api.js';
import type { SandboxPlan, ServerDefinition } from '../../core/config/index.js';
import type { ParsedArgs } from '../args.js';
import { EXIT, type ExitCode } from '../errors.js';
import { oneLine, stateError, stateText, table, transportOf, visible } from '../format.js';
import { cell } from '../output.js';
import type { Session } from '../session.js';
import { connectAll, connectOne, printJson, reportUnavailable } from './shared.js';
import { approvalNote, approvalState, heldForApproval } from '../approvals.js';

async function snapshots(session: Session, server: string | undefined): Promise<ServerSnapshot[]> {
  if (server !== undefined) return [await connectOne(session, server)];
  const all = await connectAll(session);
  reportUnavailable(session, all);
  return all;
}

/** Entries with config errors that kept them from loading: rows too, so scripts see them. */
function notLoaded(session: Session): Record<string, unknown>[] {
  const loaded = new Set(session.names());
  const rows = new Map<string, Record<string, unknown> & { errors: string[] }>();
  for (const p of session.config.problems) {
    if (p.severity !== 'error' || p.server === undefined || loaded.has(p.server)) continue;
    const row = rows.get(p.server) ?? {
      name: p.server,
      scope: p.scope ?? null,
      source: { file: p.file, jsonPath: p.jsonPath },
      transport: null,
      state: 'invalid',
      errors: [],
    };
    row.errors.push(p.message);
    rows.set(p.server, row);
  }
  return [...rows.values()].map(({ errors, ...row }) => ({
    ...row,
    error: errors.join('; '),
    tools: 0,
    resources: 0,
    prompts: 0,
  }));
}

/** Only sandboxed servers get the keys, so other output stays as it was. */
function sandboxJson(def: ServerDefinition): { sandboxed?: true; sandbox?: SandboxPlan } {
  const plan = def.admission?.run ? def.admission.sandbox : undefined;
  return plan ? { sandboxed: true, sandbox: plan } : {};
}

export async function list(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const snaps = await connectAll(session);
  // Counts leave out tools switched off for this folder, as `tools` does.
  const toolCount = (s: (typeof snaps)[number]): number => session.toolFilter.filter(s.tools).length;
  if (a.json) {
    printJson(session, [
      ...snaps.map((s) => {
        const err = stateError(s.state, s.name);
        return {
          name: s.name,
          scope: s.definition.source.scope,
          source: { file: s.definition.source.file, jsonPath: s.definition.source.jsonPath },
          transport: transportOf(s.definition),
          ...(s.definition.teamGateway ? { teamGateway: s.definition.teamGateway } : {}),
          ...sandboxJson(s.definition),
          state: s.state.kind,
          ...(s.state.kind === 'connected' && s.state.protocolVersion
            ? { protocolVersion: s.state.protocolVersion }
            : {}),
          ...(err ? { error: session.redact(err.message) } : {}),
          ...(heldForApproval([s.definition]).length ? { awaitingApproval: true } : {}),
          tools: toolCount(s),
          resources: s.resources.length + s.resourceTemplates.length,
          prompts: s.prompts.length,
        };
      }),
      ...notLoaded(session),
    ]);
    return EXIT.ok;
  }
  if (snaps.length === 0) {
    session.io.stdout(`No servers configured for ${session.workspace} (.mcp.json, .vscode/mcp.json or --config).\n`);
    return EXIT.ok;
  }
  const rows = snaps.map((s) => [
    cell(s.name),
    `${transportOf(s.definition)}${sandboxJson(s.definition).sandboxed ? ' (sandboxed)' : ''}${s.definition.teamGateway ? ' (team gateway)' : ''}`,
    s.definition.source.scope,
    String(toolCount(s)),
    String(s.resources.length + s.resourceTemplates.length),
    String(s.prompts.length),
    cell(
      session.redact(
        heldForApproval([s.definition]).length
          ? approvalState(s.definition, session.approvalStore)
          : stateText(s.state),
      ),
    ),
  ]);
  session.io.stdout(table(rows, ['NAME', 'TRANSPORT', 'SCOPE', 'TOOLS', 'RESOURCES', 'PROMPTS', 'STATE']));
  session.io.stdout(approvalNote(heldForApproval(snaps.map((s) => s.definition))));
  return EXIT.ok;
}

export async function tools(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const snaps = await snapshots(session, a.positionals[0]);
  // App-only tools (MCP Apps `visibility: ["app"]`) exist for their app, not for people or agents;
  // tools switched off in the editor's tree for this folder stay hidden here too.
  const all = session.toolFilter.filter(snaps.flatMap((s) => s.tools.filter(visibleToModel)));
  if (a.json) {
    printJson(
      session,
      all.map((t) => ({
        server: t.server,
        name: t.name,
        qualifiedName: t.qualifiedName,
        description: t.description,
        annotations: t.annotations,
        inputSchema: t.inputSchema,
        // A gateway's tool: the server behind it and that server's name for it (core/upstream-meta.ts).
        ...(t.upstream ? { upstream: t.upstream } : {}),
      })),
    );
    return EXIT.ok;
  }
  const hints = (t: (typeof all)[number]): string =>
    [
      t.annotations.readOnlyHint ? 'read-only' : '',
      t.annotations.destructiveHint ? 'destructive' : '',
      t.annotations.openWorldHint ? 'open-world' : '',
    ]
      .filter(Boolean)
      .join(',');
  session.io.stdout(
    table(
      all.map((t) => [
        visible(t.upstream ? `${t.server} › ${t.upstream.server}` : t.server),
        visible(t.name),
        hints(t),
        oneLine(t.description),
      ]),
      ['SERVER', 'TOOL', 'HINTS', 'DESCRIPTION'],
    ),
  );
  return EXIT.ok;
}

export async function resources(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const snaps = await snapshots(session, a.positionals[0]);
  const items = snaps.flatMap((s) => [
    ...s.resources.map((r) => ({ ...r })),
    ...s.resourceTemplates.map((t) => ({ ...t })),
  ]);
  if (a.json) {
    printJson(session, items);
    return EXIT.ok;
  }
  const rows = items.map((r) => [
    visible(r.server),
    visible('uri' in r ? r.uri : `${r.uriTemplate} (template)`),
    visible(r.name),
    r.mimeType ?? '',
    oneLine(r.description, 60),
  ]);
  session.io.stdout(table(rows, ['SERVER', 'URI', 'NAME', 'MIME', 'DESCRIPTION']));
  return EXIT.ok;
}

export async function prompts(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const snaps = await snapshots(session, a.positionals[0]);
  const all = snaps.flatMap((s) => s.prompts);
  if (a.json) {
    printJson(session, all);
    return EXIT.ok;
  }
  const rows = all.map((p) => [
    visible(p.server),
    visible(p.name),
    visible(p.arguments.map((x) => (x.required ? x.name : `${x.name}?`)).join(' ')),
    oneLine(p.description, 60),
  ]);
  session.io.stdout(table(rows, ['SERVER', 'PROMPT', 'ARGUMENTS', 'DESCRIPTION']));
  return EXIT.ok;
}
