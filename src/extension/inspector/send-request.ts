/**
 * Send Request…: any method to a connected server, its params edited as JSON with the spec's
 * schema for completion, the answer shown in a read-only document.
 */
import * as vscode from 'vscode';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { paramsSchema, paramsTemplate, requestMethods } from '../../core/inspector/index.js';
import { editJsonDocument } from '../calls/json-editor.js';
import type { InspectorDeps, PickServer } from './inspector-deps.js';
import { RESPONSE_SCHEME } from './schemes.js';

/** The last responses of Send Request…, by document URI (bounded: they are only for reading). */
const responses = new Map<string, string>();
let responseSeq = 0;

/** The responses' documents: kept while open, forgotten when closed. */
export function responseDocuments(): { provider: vscode.TextDocumentContentProvider; disposable: vscode.Disposable } {
  return {
    provider: {
      provideTextDocumentContent: (uri) =>
        responses.get(uri.toString()) ?? '// This response is no longer kept; send the request again.\n',
    },
    disposable: vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === RESPONSE_SCHEME) responses.delete(d.uri.toString());
    }),
  };
}

export async function sendRequest(deps: InspectorDeps, pick: PickServer, arg?: unknown): Promise<void> {
  const name = await pick(arg, 'Send Request', true);
  if (!name) return;
  const method = await pickMethod(name);
  if (!method) return;
  const value = await editJsonDocument(
    await paramsDocument(deps.storageDir, method, name),
    `${method} to ${name}`,
    (v) => (v && typeof v === 'object' && !Array.isArray(v) ? undefined : 'params must be a JSON object'),
  );
  if (!value) return;
  const { $schema: _s, ...params } = value.value as Record<string, unknown>;
  const t0 = performance.now();
  const result = await deps.host.request(name, method, Object.keys(params).length ? params : undefined);
  await showResponse(name, method, result, performance.now() - t0);
}

/** One of the spec's requests, or any other method typed in. */
async function pickMethod(name: string): Promise<string | undefined> {
  const methods = requestMethods().filter((m) => m !== 'initialize');
  const picked = await vscode.window.showQuickPick(
    [...methods.map((m) => ({ label: m })), { label: '$(edit) Other method…', other: true }],
    { title: `Send a request to ${name}`, placeHolder: 'Method (the spec’s requests; “Other” for anything else)' },
  );
  if (!picked) return undefined;
  return 'other' in picked
    ? vscode.window.showInputBox({
        title: 'Method',
        prompt: 'Any JSON-RPC method, e.g. my/custom',
        validateInput: (v) => (v.trim() ? undefined : 'A method is required'),
      })
    : picked.label;
}

/** The params to edit: the method's template, under a `$schema` that is never sent. */
async function paramsDocument(storageDir: string, method: string, name: string): Promise<string> {
  // The spec's params schema, referenced by $schema, gives completion and hovers in the JSON editor.
  const schema = paramsSchema(method);
  let header = '';
  if (schema) {
    const dir = join(storageDir, 'request-schemas');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${method.replace(/[^\w.-]+/g, '_')}.schema.json`);
    await writeFile(file, JSON.stringify(schema, null, 2));
    header = `  "$schema": ${JSON.stringify(vscode.Uri.file(file).toString())},\n`;
  }
  const body = JSON.stringify(paramsTemplate(method), null, 2).slice(1, -1).trimEnd();
  return `// params of ${method} for ${name}; "$schema" only gives completion and is not sent\n{\n${header}${body.replace(/^\n/, '')}\n}\n`.replace(
    /,\n\n}/,
    '\n}',
  );
}

async function showResponse(name: string, method: string, result: unknown, ms: number): Promise<void> {
  // A read-only document: closing it never asks to save.
  const uri = vscode.Uri.from({
    scheme: RESPONSE_SCHEME,
    path: `/${name}/${method}.jsonc`,
    query: String(++responseSeq),
  });
  responses.set(
    uri.toString(),
    `// ${method} → ${name} answered in ${ms.toFixed(1)} ms\n${JSON.stringify(result, null, 2)}\n`,
  );
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
}
