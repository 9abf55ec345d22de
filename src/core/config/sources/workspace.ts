/** `<folder>/.vscode/mcp.json` (VS Code's format: JSONC with `servers` and `inputs`). */
import { join } from 'node:path';
import { describeValue } from '../jsonc.js';
import type { ConfigProblem } from '../types.js';
import { entriesAt, readDocument, type InputDeclaration, type SourceResult } from './entry.js';

export function workspaceFile(folder: string): string {
  return join(folder, '.vscode', 'mcp.json');
}

/** Reads `inputs`: [{ "type": "promptString", "id", "description", "password" }]. */
export function readInputs(value: unknown, file: string, problems: ConfigProblem[]): Map<string, InputDeclaration> {
  const out = new Map<string, InputDeclaration>();
  if (value === undefined) return out;
  if (!Array.isArray(value)) {
    problems.push({ severity: 'error', code: 'schema', message: `"inputs" must be an array of { "id", "description", "password" } objects, but it is ${describeValue(value)}.`, file, jsonPath: ['inputs'], scope: 'workspace' });
    return out;
  }
  value.forEach((v: unknown, i) => {
    const o = v as Record<string, unknown> | null;
    if (!o || typeof o !== 'object' || typeof o.id !== 'string' || o.id === '') {
      problems.push({ severity: 'error', code: 'schema', message: `inputs[${i}] needs an "id" (a string) that \${input:<id>} refers to.`, file, jsonPath: ['inputs', i], scope: 'workspace' });
      return;
    }
    out.set(o.id, {
      id: o.id,
      ...(typeof o.description === 'string' ? { description: o.description } : {}),
      ...(o.password === true ? { password: true } : {}),
    });
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
