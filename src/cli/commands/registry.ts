/** `mcp-host search QUERY` and the registry half of `mcp-host add NAME --from-registry ID`. */
import {
  buildEntry,
  type BuiltEntry,
  inputIdsIn,
  installChoices,
  type InstallVariable,
  planInstall,
  RegistryClient,
  RegistryError,
  type RegistryServer,
} from '../../core/registry/index.js';
import { registrySettings, requireEnabled } from '../../core/config/index.js';
import type { ParsedArgs } from '../args.js';
import { CliError, EXIT, usageError, type ExitCode } from '../errors.js';
import { managedPathFor, type Session } from '../session.js';
import { printJson } from './shared.js';

async function client(session: Session): Promise<RegistryClient> {
  const setting = session.userSettings['mcpHost.registry.url'];
  const s = await registrySettings({
    settingUrl: typeof setting === 'string' ? setting : undefined,
    env: session.io.env,
    managedPath: managedPathFor(session.io.env, session.userSettings),
  });
  try {
    requireEnabled(s);
  } catch (e) {
    throw usageError((e as Error).message);
  }
  return new RegistryClient({ baseUrl: s.url });
}

/** Registry failures are connection failures (exit 3), except "no such server" (a usage error). */
function cliError(e: unknown): unknown {
  if (e instanceof RegistryError)
    return new CliError(e.code === 'not-found' || e.code === 'disabled' ? EXIT.usage : EXIT.connection, e.message);
  return e;
}

function howItRuns(s: RegistryServer): string {
  const ways = installChoices(s).filter((c) => !c.unsupported);
  return ways.length ? ways.map((w) => w.summary).join(' | ') : '(no way to run it that MCP Host supports)';
}

/** One page (the first, or the one `a.cursor` names), or with `a.all` every page joined. */
async function searchPages(
  reg: RegistryClient,
  query: string,
  a: ParsedArgs,
): Promise<{ servers: RegistryServer[]; skipped: string[]; nextCursor?: string }> {
  const servers: RegistryServer[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  let cursor = a.cursor;
  for (;;) {
    let page;
    try {
      page = await reg.search(query, { limit: 30, cursor });
    } catch (e) {
      throw cliError(e);
    }
    servers.push(...page.servers);
    skipped.push(...page.skipped);
    if (!a.all || !page.nextCursor) return { servers, skipped, nextCursor: page.nextCursor };
    // A registry that hands back a cursor it gave before would page forever.
    if (seen.has(page.nextCursor))
      throw new CliError(EXIT.connection, `the registry at ${reg.baseUrl} repeated the cursor "${page.nextCursor}"`);
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

export async function searchCommand(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const query = a.positionals[0] ?? '';
  const reg = await client(session);
  const page = await searchPages(reg, query, a);
  if (a.json) {
    printJson(session, { servers: page.servers, nextCursor: page.nextCursor ?? null, skipped: page.skipped });
    return EXIT.ok;
  }
  for (const reason of page.skipped) session.io.stderr(`mcp-host: skipped a registry entry: ${reason}\n`);
  if (!page.servers.length) {
    session.io.stdout(`No servers match "${query}" in ${reg.baseUrl}.\n`);
    return EXIT.ok;
  }
  for (const s of page.servers) {
    session.io.stdout(`${s.name}${s.version ? `@${s.version}` : ''}${s.title ? ` — ${s.title}` : ''}\n`);
    if (s.description) session.io.stdout(`  ${s.description}\n`);
    session.io.stdout(`  runs: ${howItRuns(s)}\n`);
  }
  if (page.nextCursor)
    session.io.stdout(`(more results: --cursor ${JSON.stringify(page.nextCursor)} for the next page, --all for all)\n`);
  return EXIT.ok;
}

export interface RegistryEntry extends BuiltEntry {
  server: RegistryServer;
  summary: string;
}

/**
 * The entry for registry server `id`: its first package MCP Host can start, else its first
 * remote. `--env`/`--header` values fill its variables (by name or id); secrets are written as
 * references in `secretStyle`, never as the value.
 */
export async function registryEntry(
  session: Session,
  id: string,
  a: ParsedArgs,
  secretStyle: 'input' | 'env',
  /** The target file's text: its input ids are not reused (`inputIdsIn`). */
  targetText?: string,
): Promise<RegistryEntry> {
  const reg = await client(session);
  let server: RegistryServer;
  try {
    server = await reg.get(id);
  } catch (e) {
    throw cliError(e);
  }
  const choices = installChoices(server);
  const usable = choices.find((c) => !c.unsupported);
  if (!usable)
    throw usageError(
      `"${server.name}" cannot be installed: ${choices.map((c) => c.unsupported).join(' ') || 'it has no packages or remotes'}`,
    );
  const plan = planInstall(server, usable.choice, secretStyle === 'input' ? inputIdsIn(targetText) : undefined);
  const given = new Map([...a.env, ...a.headers]);
  const values: Record<string, string | undefined> = {};
  const used = new Set<string>();
  const lookup = (v: InstallVariable): string | undefined => {
    for (const k of [v.name, v.id]) {
      if (given.has(k)) {
        used.add(k);
        return given.get(k);
      }
    }
    return undefined;
  };
  for (const v of plan.variables) {
    const value = lookup(v);
    if (value !== undefined && v.isSecret)
      session.io.stderr(
        `mcp-host: ${v.label} is secret: its value is not written to the file; the server reads it from \${${secretStyle === 'input' ? `input:${v.id}` : v.id}}.\n`,
      );
    values[v.id] = value;
  }
  const unknown = [...given.keys()].filter((k) => !used.has(k));
  if (unknown.length) {
    const known = plan.variables.map((v) => v.name);
    throw usageError(
      `"${server.name}" has no variable ${unknown.join(', ')}`,
      known.length ? `Its variables: ${known.join(', ')}` : 'It takes no variables.',
    );
  }
  try {
    return { ...buildEntry(plan, values, secretStyle), server, summary: plan.summary };
  } catch (e) {
    throw usageError((e as Error).message, 'Give values with --env NAME=VALUE (or --header NAME=VALUE).');
  }
}
