/**
 * `add`, `add-json`, `remove` and `import`: the CLI's config edits. Files are changed with the
 * comment-preserving edits of core/config/edit.ts; nothing is ever rewritten wholesale.
 */
import { homedir } from 'node:os';
import {
  addInputDeclarations,
  ConfigEditError,
  DISCOVERY_SOURCES,
  planImport,
  readImportSource,
  removeServerEntry,
  setServerEntry,
} from '../../core/config/index.js';
import type { ParsedArgs } from '../args.js';
import { namesIn, readTarget, targetFor, writeTarget, type ConfigTarget, type EditScope } from '../config-files.js';
import { EXIT, usageError, type ExitCode } from '../errors.js';
import { inputVariableName } from '../ports.js';
import type { Session } from '../session.js';
import { registryEntry } from './registry.js';
import { printJson } from './shared.js';
import { refuseAddUnderPolicy } from '../policy-guard.js';

function asUsage(e: unknown): unknown {
  return e instanceof ConfigEditError ? usageError(e.message) : e;
}

function remoteType(url: string, given: ParsedArgs['transport']): 'http' | 'sse' | 'ws' {
  if (given) return given;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw usageError(`--url ${url} is not a URL`, 'Example: --url https://example.com/mcp');
  }
  if (u.protocol === 'ws:' || u.protocol === 'wss:') return 'ws';
  return /\/sse\/?$/.test(u.pathname) ? 'sse' : 'http';
}

async function write(
  session: Session,
  t: ConfigTarget,
  name: string,
  entry: Record<string, unknown>,
  o: { replace: boolean },
): Promise<string> {
  const text = await readTarget(t);
  if (!o.replace && namesIn(text, t.format).has(name)) {
    throw usageError(
      `${t.file} already has a server "${name}"`,
      `Remove it first (mcp-host remove ${name} --scope ${t.scope}) or choose another name.`,
    );
  }
  let out: string;
  try {
    out = setServerEntry(text, t.format, name, entry);
    await writeTarget(t, out);
  } catch (e) {
    throw asUsage(e);
  }
  await approveOwn(session, t, [name]);
  return out;
}

/**
 * Entries the user just wrote into the folder's files start without asking them to approve their
 * own words, as in the editor: the registry approves the definitions it reads next under these names.
 */
async function approveOwn(session: Session, t: ConfigTarget, names: readonly string[]): Promise<void> {
  if (t.scope === 'user' || names.length === 0) return;
  for (const n of names) session.registry.expectSelfAdded(n);
  await session.registry.reload();
}

export async function addCommand(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const name = a.positionals[0]!;
  const forms = [a.fromRegistry !== undefined, a.url !== undefined, (a.rest?.length ?? 0) > 0].filter(Boolean).length;
  if (forms !== 1)
    throw usageError(
      'add needs exactly one of --from-registry ID, --url URL, or -- COMMAND [ARGS...]',
      'usage: mcp-host add NAME --from-registry ID | --url URL [--transport http|sse|ws] | -- COMMAND [ARGS...]',
    );
  refuseAddUnderPolicy(session.config.policy, a.fromRegistry !== undefined);
  const t = targetFor(session, a.scope ?? 'project');
  // Before anything is asked of the registry or written (input declarations come first).
  if (namesIn(await readTarget(t), t.format).has(name)) {
    throw usageError(
      `${t.file} already has a server "${name}"`,
      `Remove it first (mcp-host remove ${name} --scope ${t.scope}) or choose another name.`,
    );
  }
  let entry: Record<string, unknown>;
  let note: string[] = [];
  if (a.fromRegistry !== undefined) {
    // `.vscode/mcp.json` has password inputs; the other files read secrets from the environment.
    const style = t.scope === 'workspace' ? 'input' : 'env';
    const r = await registryEntry(session, a.fromRegistry, a, style, (await readTarget(t)) ?? undefined);
    entry = r.entry;
    if (r.secrets.length && style === 'input') {
      const text = (await readTarget(t)) ?? '{}\n';
      await writeTarget(
        t,
        addInputDeclarations(
          text,
          r.secrets.map((s) => ({ id: s.id, description: s.description ?? s.label, password: true })),
        ),
      );
      note = r.secrets.map(
        (s) =>
          `${s.label}: the editor asks for it once and keeps it in its secret storage; the CLI reads ${inputVariableName(s.id)}.`,
      );
    } else note = r.secrets.map((s) => `${s.label}: set the environment variable ${s.id} before starting the server.`);
    note.unshift(`${r.server.name}${r.server.version ? `@${r.server.version}` : ''}: ${r.summary}`);
    // The whole entry (fixed headers and arguments included) is shown before it is written.
    if (!a.json)
      session.io.stderr(
        `mcp-host: writing this entry from the registry:\n${JSON.stringify({ [name]: entry }, null, 2)}\n`,
      );
  } else {
    if (a.url !== undefined) {
      if (a.env.length) throw usageError('--env is for local servers; a remote server takes --header');
      entry = { type: remoteType(a.url, a.transport), url: a.url };
      if (a.headers.length) entry.headers = Object.fromEntries(a.headers);
    } else {
      if (a.headers.length) throw usageError('--header is for remote servers (--url); a local server takes --env');
      if (a.transport) throw usageError('--transport goes with --url');
      const [command, ...args] = a.rest!;
      entry = { command: command!, args };
      if (a.env.length) entry.env = Object.fromEntries(a.env);
    }
    if (t.shared && (a.env.length || a.headers.length)) {
      session.io.stderr(
        `mcp-host: note: ${t.file} is usually shared; the --env/--header values are stored in it as written. Use \${VAR} to read a secret from the environment instead.\n`,
      );
    }
  }
  await write(session, t, name, entry, { replace: false });
  if (a.json) printJson(session, { name, scope: t.scope, file: t.file, entry });
  else {
    session.io.stdout(`Added "${name}" to ${t.file}\n`);
    for (const n of note) session.io.stdout(`  ${n}\n`);
  }
  return EXIT.ok;
}

export async function addJsonCommand(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const [name, json] = a.positionals as [string, string];
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (e) {
    throw usageError(
      `JSON is not valid: ${(e as Error).message}`,
      `Example: mcp-host add-json ${name} '{"command": "npx", "args": ["-y", "pkg"]}'`,
    );
  }
  if (!entry || typeof entry !== 'object' || Array.isArray(entry))
    throw usageError('JSON must be an object (one server entry)');
  // An entry naming its registry origin is let through: the start-time registry check confirms it.
  refuseAddUnderPolicy(session.config.policy, 'registry' in entry);
  const t = targetFor(session, a.scope ?? 'project');
  await write(session, t, name, entry as Record<string, unknown>, { replace: false });
  if (a.json) printJson(session, { name, scope: t.scope, file: t.file });
  else session.io.stdout(`Added "${name}" to ${t.file}\n`);
  return EXIT.ok;
}

export async function removeCommand(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const name = a.positionals[0]!;
  const scopes: EditScope[] = a.scope ? [a.scope] : ['project', 'workspace', 'user'];
  const found: { t: ConfigTarget; text: string }[] = [];
  for (const s of scopes) {
    const t = targetFor(session, s);
    const text = await readTarget(t);
    if (text !== undefined && namesIn(text, t.format).has(name)) found.push({ t, text });
  }
  if (found.length === 0) {
    const def = session.definition(name);
    const where = def ? ` It comes from ${def.source.file} (${def.source.scope}), which mcp-host does not edit.` : '';
    throw usageError(`no server "${name}" in ${scopes.map((s) => targetFor(session, s).file).join(', ')}.${where}`);
  }
  if (found.length > 1)
    throw usageError(
      `"${name}" is in ${found.map((f) => `${f.t.file} (${f.t.scope})`).join(' and ')}`,
      'Say which with --scope project|workspace|user.',
    );
  const { t, text } = found[0]!;
  try {
    await writeTarget(t, removeServerEntry(text, t.format, name));
  } catch (e) {
    throw asUsage(e);
  }
  if (a.json) printJson(session, { name, scope: t.scope, file: t.file, removed: true });
  else session.io.stdout(`Removed "${name}" from ${t.file}\n`);
  return EXIT.ok;
}

export async function importCommand(session: Session, a: ParsedArgs): Promise<ExitCode> {
  if (!a.from) throw usageError('import needs --from APP', `APP is one of ${DISCOVERY_SOURCES.join(', ')}`);
  refuseAddUnderPolicy(session.config.policy, false);
  const t = targetFor(session, a.scope ?? 'user');
  const src = await readImportSource(a.from, [session.workspace], {
    homeDir: session.io.env.HOME || homedir(),
    platform: process.platform,
    env: session.io.env,
  });
  for (const p of src.problems) session.io.stderr(`mcp-host: ${p.file}: ${p.message}\n`);
  let text = await readTarget(t);
  const decisions = planImport(src.candidates, namesIn(text, t.format), t.shared);
  for (const d of decisions.filter((x) => x.action === 'import')) {
    try {
      text = setServerEntry(text, t.format, d.name, d.entry);
    } catch (e) {
      d.action = 'invalid';
      d.reason = (e as Error).message;
    }
  }
  const imported = decisions.filter((d) => d.action === 'import');
  if (imported.length) {
    await writeTarget(t, text!);
    await approveOwn(
      session,
      t,
      imported.map((d) => d.name),
    );
  }
  if (a.json) {
    printJson(session, {
      from: a.from,
      source: src.file,
      target: t.file,
      results: decisions.map(({ name, action, reason }) => ({ name, action, ...(reason ? { reason } : {}) })),
    });
    return EXIT.ok;
  }
  if (!src.candidates.length) session.io.stdout(`No servers found in ${src.file}.\n`);
  for (const d of decisions) {
    if (d.action === 'import') session.io.stdout(`imported ${d.name}\n`);
    else session.io.stdout(`skipped  ${d.name}: ${d.action === 'clash' ? 'name clash: ' : ''}${d.reason}\n`);
  }
  if (imported.length)
    session.io.stdout(
      `${imported.length} server${imported.length === 1 ? '' : 's'} imported from ${src.file} into ${t.file}\n`,
    );
  return EXIT.ok;
}
