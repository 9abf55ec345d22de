/** The files `add`, `remove` and `import` edit, by scope, read and written as text (comment-preserving edits). */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { type ConfigFileFormat, serversKey } from '../core/config/index.js';
import type { Session } from './session.js';

export type EditScope = 'project' | 'workspace' | 'user';

export interface ConfigTarget {
  scope: EditScope;
  file: string;
  format: ConfigFileFormat;
  /** Team-shared files get no literal secrets. */
  shared: boolean;
}

export function targetFor(session: Session, scope: EditScope): ConfigTarget {
  switch (scope) {
    case 'project':
      return { scope, file: join(session.workspace, '.mcp.json'), format: 'mcp.json', shared: true };
    case 'workspace':
      return { scope, file: join(session.workspace, '.vscode', 'mcp.json'), format: 'vscode-mcp.json', shared: true };
    case 'user':
      return { scope, file: session.userSettingsFile, format: 'settings', shared: false };
  }
}

export async function readTarget(t: ConfigTarget): Promise<string | undefined> {
  try {
    return await readFile(t.file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

export async function writeTarget(t: ConfigTarget, text: string): Promise<void> {
  await mkdir(dirname(t.file), { recursive: true });
  await writeFile(t.file, text);
}

/** Server names in the file's server object (empty when the file is missing or unreadable). */
export function namesIn(text: string | undefined, format: ConfigFileFormat): Set<string> {
  if (!text) return new Set();
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const node = root && findNodeAtLocation(root, [serversKey(format)]);
  return new Set(node?.type === 'object' ? (node.children ?? []).map((p) => String(p.children?.[0]?.value)) : []);
}
