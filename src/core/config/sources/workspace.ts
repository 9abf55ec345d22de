/** `<folder>/.vscode/mcp.json` (VS Code's format: JSONC with `servers` and `inputs`). */
import { join } from 'node:path';
import { inputDeclarationSchema } from '../inputs-schema.js';
import { describeValue } from '../jsonc.js';
import type { ConfigProblem } from '../types.js';
import { entriesAt, readDocument, type InputDeclaration, type SourceResult } from './entry.js';

export function workspaceFile(folder: string): string {
  return join(folder, '.vscode', 'mcp.json');
}

/**
 * Reads `inputs` with their one schema (../inputs-schema.ts): [{ "id", "type": "promptString" |
 * "pickString" | "command", "description", "password", "default", "options", "command", "args" }].
 * A bad declaration is reported and left out, so only the servers using it wait (their
 * `${input:…}` is then "not declared").
 */
export function readInputs(value: unknown, file: string, problems: ConfigProblem[]): Map<string, InputDeclaration> {
  const out = new Map<string, InputDeclaration>();
  if (value === undefined) return out;
  const bad = (message: string, path: (string | number)[]) =>
    problems.push({
      severity: 'error',
      code: 'schema',
      message,
      file,
      jsonPath: ['inputs', ...path],
      scope: 'workspace',
    });
  if (!Array.isArray(value)) {
    bad(
      `"inputs" must be an array of { "id", "type", "description", ... } objects, but it is ${describeValue(value)}.`,
      [],
    );
    return out;
  }
  value.forEach((v: unknown, i) => {
    const parsed = inputDeclarationSchema.safeParse(v);
    if (!parsed.success) {
      const o = v as Record<string, unknown> | null;
      // Only the id (or the whole item) and the type can fail here; every other field is lenient.
      if (parsed.error.issues.some((issue) => issue.path.length === 0 || issue.path[0] === 'id'))
        bad(`inputs[${i}] needs an "id" (a string) that \${input:<id>} refers to.`, [i]);
      else
        bad(
          `inputs[${i}] ("${String(o?.id)}") has "type" ${describeValue(o?.type)}; use "promptString", "pickString" or "command".`,
          [i, 'type'],
        );
      return;
    }
    const o = parsed.data;
    const decl: InputDeclaration = {
      id: o.id,
      type: o.type,
      ...(o.description !== undefined ? { description: o.description } : {}),
      ...(o.password === true && o.type === 'promptString' ? { password: true } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
    };
    if (o.type === 'pickString') {
      const options = (o.options ?? []).flatMap((x) =>
        x === undefined
          ? []
          : typeof x === 'string'
            ? [{ label: x, value: x }]
            : [{ label: x.label ?? x.value, value: x.value }],
      );
      if (options.length === 0) {
        bad(
          `inputs[${i}] ("${o.id}") is a pickString without "options"; add the choices, e.g. "options": ["a", "b"].`,
          [i, 'options'],
        );
        return;
      }
      decl.options = options;
    }
    if (o.type === 'command') {
      if (o.command === undefined) {
        bad(
          `inputs[${i}] ("${o.id}") is a command input without "command"; set the id of the command whose result is the value.`,
          [i, 'command'],
        );
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
  const entries = entriesAt(
    d.doc,
    ['servers'],
    { file, scope: 'workspace', folder, workspaceFolder: folder, baseDir: folder, text: d.text, inputs },
    problems,
  );
  return { entries, problems, files: [file] };
}
