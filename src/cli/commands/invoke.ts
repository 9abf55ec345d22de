/** `call`, `read`, `prompt`: one request to one server. */
import type { CallOptions } from '../../core/host-api.js';
import type { ParsedArgs } from '../args.js';
import { EXIT, usageError, type ExitCode } from '../errors.js';
import { contentText } from '../format.js';
import type { Session } from '../session.js';
import { connectOne, parseArgsJson, printJson } from './shared.js';

function callOptions(a: ParsedArgs): CallOptions {
  return a.timeoutMs !== undefined ? { timeoutMs: a.timeoutMs } : {};
}

export async function call(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const [server, toolName] = a.positionals as [string, string];
  const args = parseArgsJson(a.args);
  const snap = await connectOne(session, server);
  const tool = snap.tools.find((t) => t.name === toolName) ?? snap.tools.find((t) => t.qualifiedName === toolName);
  if (!tool) {
    const names = snap.tools.map((t) => t.name);
    throw usageError(
      `server "${server}" has no tool "${toolName}"; its tools: ${names.length ? names.join(', ') : '(none)'}`,
    );
  }
  if (!session.toolFilter.isEnabled(server, tool.name)) {
    throw usageError(
      `tool "${tool.name}" of server "${server}" is disabled for ${session.workspace}`,
      'Tick it in the MCP Host view of the editor to enable it again.',
    );
  }
  const result = await session.host.callTool(server, tool.name, args, callOptions(a));
  if (a.json) printJson(session, result);
  else {
    const parts = result.content.map(contentText);
    if (parts.length === 0 && result.structuredContent !== undefined)
      parts.push(JSON.stringify(result.structuredContent, null, 2));
    if (parts.length) session.io.stdout(`${parts.join('\n')}\n`);
  }
  return result.isError ? EXIT.toolError : EXIT.ok;
}

export async function read(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const [server, uri] = a.positionals as [string, string];
  await connectOne(session, server);
  const result = await session.host.readResource(server, uri, callOptions(a));
  if (a.json) {
    printJson(session, result);
    return EXIT.ok;
  }
  for (const c of result.contents) {
    if (c.text !== undefined) session.io.stdout(c.text.endsWith('\n') ? c.text : `${c.text}\n`);
    else if (c.blobPath !== undefined)
      session.io.stdout(
        `${c.uri}: ${c.size ?? 0} bytes${c.mimeType ? ` (${c.mimeType})` : ''} saved to ${c.blobPath}\n`,
      );
  }
  return EXIT.ok;
}

/** Prompt arguments are strings on the wire; numbers and booleans are converted, anything else refused. */
function promptArgs(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parseArgsJson(text))) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else
      throw usageError(
        `--args: prompt argument "${k}" must be a string, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`,
      );
  }
  return out;
}

export async function prompt(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const [server, name] = a.positionals as [string, string];
  const args = promptArgs(a.args);
  const snap = await connectOne(session, server);
  const p = snap.prompts.find((x) => x.name === name);
  if (!p) {
    const names = snap.prompts.map((x) => x.name);
    throw usageError(
      `server "${server}" has no prompt "${name}"; its prompts: ${names.length ? names.join(', ') : '(none)'}`,
    );
  }
  const missing = p.arguments.filter((x) => x.required && !(x.name in args)).map((x) => x.name);
  if (missing.length)
    throw usageError(
      `prompt "${name}" needs argument(s) ${missing.join(', ')}`,
      `Example: --args '${JSON.stringify(Object.fromEntries(missing.map((m) => [m, '…'])))}'`,
    );
  const result = await session.host.getPrompt(server, name, args, callOptions(a));
  if (a.json) {
    printJson(session, result);
    return EXIT.ok;
  }
  if (result.description) session.io.stdout(`# ${result.description}\n\n`);
  for (const m of result.messages) session.io.stdout(`[${m.role}]\n${contentText(m.content)}\n\n`);
  return EXIT.ok;
}
