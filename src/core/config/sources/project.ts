/** `<folder>/.mcp.json` (Claude Code's project format: `mcpServers`, plain JSON). */
import { join } from 'node:path';
import { entriesAt, readDocument, type SourceResult } from './entry.js';

export function projectFile(folder: string): string {
  return join(folder, '.mcp.json');
}

export async function readProject(folder: string): Promise<SourceResult> {
  const file = projectFile(folder);
  // Claude Code reads this file as plain JSON, so comments would break it there: reported, not accepted.
  const d = await readDocument(file, 'project', false);
  const problems = [...d.problems];
  const entries = d.doc
    ? entriesAt(
        d.doc,
        ['mcpServers'],
        { file, scope: 'project', folder, workspaceFolder: folder, baseDir: folder, text: d.text },
        problems,
      )
    : [];
  return { entries, problems, files: [file] };
}
