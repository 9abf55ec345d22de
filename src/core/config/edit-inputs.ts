/**
 * Declares `${input:id}` inputs in a `.vscode/mcp.json` (`"inputs": [...]`), keeping the file's
 * comments and other content. An input that is already declared is left as the user wrote it.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree, type ParseError } from 'jsonc-parser';
import { ConfigEditError, detectFormatting } from './edit.js';

export interface PromptStringInput {
  id: string;
  description: string;
  password: boolean;
}

export function addInputDeclarations(text: string, inputs: readonly PromptStringInput[]): string {
  let out = text;
  for (const input of inputs) {
    const errors: ParseError[] = [];
    const root = parseTree(out, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length || !root || root.type !== 'object')
      throw new ConfigEditError('invalid-json', 'The file has a JSON error; fix it first (it was not changed).');
    const list = findNodeAtLocation(root, ['inputs']);
    if (list && list.type !== 'array')
      throw new ConfigEditError('not-an-object', '"inputs" in the file is not an array; it was not changed.');
    const declared = (list?.children ?? []).some(
      (c) => c.type === 'object' && findNodeAtLocation(c, ['id'])?.value === input.id,
    );
    if (declared) continue;
    const f = detectFormatting(out);
    const value = {
      type: 'promptString',
      id: input.id,
      description: input.description,
      ...(input.password ? { password: true } : {}),
    };
    const edits = modify(out, list ? ['inputs', list.children?.length ?? 0] : ['inputs'], list ? value : [value], {
      isArrayInsertion: !!list,
      formattingOptions: { insertSpaces: f.unit !== '\t', tabSize: f.unit === '\t' ? 1 : f.unit.length, eol: f.eol },
    });
    out = applyEdits(out, edits);
  }
  return out;
}
