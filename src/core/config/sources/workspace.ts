/** `<folder>/.vscode/mcp.json` (VS Code's format: JSONC with `servers` and `inputs`). */
import { join } from 'node:path';
import { describeValue } from '../jsonc.js';
import type { ConfigProblem } from '../types.js';
import { entriesAt, readDocument, type InputDeclaration, type SourceResult } from './entry.js';

export function workspaceFile(folder: string): string {
  return join(folder, '.vscode', 'mcp.json');
}

const INPUT_TYPES = ['promptString', 'pickString', 'command'] as const;

/**
 * Reads `inputs`: [{ "id", "type": "promptString" | "pickString" | "command", "description",
 * "password", "default", "options", "command", "args" }]. A bad declaration is reported and left
 * out, so only the servers using it wait (their `${input:…}` is then "not declared").
 */
export function readInputs(value: unknown, file: string, problems: ConfigProblem[]): Map<string, InputDeclaration> {
  const out = new Map<string, InputDeclaration>();
  if (value === undefined) return out;
  const bad = (message: string, path: (string | number)[]) => problems.push({ severity: 'error', code: 'schema', message, file, jsonPath: ['inputs', ...path], scope: 'workspace' });
  if (!Array.isArray(value)) {
    bad(`"inputs" must be an array of { "id", "type", "description", ... } objects, but it is ${describeValue(value)}.`, []);
    return out;
  }
  value.forEach((v: unknown, i) => {
    const o = v as Record<string, unknown> | null;
    if (!o || typeof o !== 'object' || typeof o.id !== 'string' || o.id === '') {
      bad(`inputs[${i}] needs an "id" (a string) that \${input:<id>} refers to.`, [i]);
      return;
    }
    const type = o.type ?? 'promptString';
    if (!INPUT_TYPES.includes(type as (typeof INPUT_TYPES)[number])) {
      bad(`inputs[${i}] ("${o.id}") has "type" ${describeValue(type)}; use "promptString", "pickString" or "command".`, [i, 'type']);
      return;
    }
    const decl: InputDeclaration = {
      id: o.id,
      type: type as InputDeclaration['type'],
      ...(typeof o.description === 'string' ? { description: o.description } : {}),
      ...(o.password === true && type === 'promptString' ? { password: true } : {}),
      ...(typeof o.default === 'string' ? { default: o.default } : {}),
    };
    if (type === 'pickString') {
      const options = Array.isArray(o.options)
        ? o.options.flatMap((x: unknown) => {
            if (typeof x === 'string') return [{ label: x, value: x }];
            const ox = x as { label?: unknown; value?: unknown } | null;
            return ox && typeof ox.value === 'string' ? [{ label: typeof ox.label === 'string' ? ox.label : ox.value, value: ox.value }] : [];
          })
        : [];
      if (options.length === 0) {
        bad(`inputs[${i}] ("${o.id}") is a pickString without "options"; add the choices, e.g. "options": ["a", "b"].`, [i, 'options']);
        return;
      }
      decl.options = options;
    }
    if (type === 'command') {
      if (typeof o.command !== 'string' || o.command === '') {
        bad(`inputs[${i}] ("${o.id}") is a command input without "command"; set the id of the command whose result is the value.`, [i, 'command']);
        return;
      }
      decl.command = o.command;
      if (o.args !== undefined) decl.args = o.args;
    }
    out.set(o.id, decl);
  });
  return out;
}

export async function readWorkspace(folder: string): Promise<SourceResult> {
  const file = workspaceFile(folder);
  const d = await readDocument(file, 'workspace', true);
  const problems = [...d.problems];
  if (!d.doc) return { entries: [], problems, files: [file] };
  const inputs = readInputs(d.doc.inputs, file, problems);
  const entries = entriesAt(d.doc, ['servers'], { file, scope: 'workspace', folder, workspaceFolder: folder, baseDir: folder, text: d.text, inputs }, problems);
  return { entries, problems, files: [file] };
}
