/** `<folder>/.mcp.json` (Claude Code's project format: `mcpServers`, plain JSON). */
import { join } from 'node:path';
import { entriesAt, readDocument, type RawEntry, type SourceResult } from './entry.js';

export function projectFile(folder: string): string {
  return join(folder, '.mcp.json');
}

export async function readProject(folder: string): Promise<SourceResult> {
  // Claude Code reads this file as plain JSON, so comments would break it there: reported, not accepted.
  return readProjectFile(projectFile(folder), folder);
}

/**
 * A project file of `mcpServers` in plain JSON (`.mcp.json`, Copilot CLI's `.github/mcp.json`):
 * project scope, so its servers start only once approved. `map` turns another app's spelling into ours.
 */
export async function readProjectFile(
  file: string,
  folder: string,
  map: (e: RawEntry) => RawEntry = (e) => e,
): Promise<SourceResult> {
  const d = await readDocument(file, 'project', false);
  const problems = [...d.problems];
  const entries = d.doc
    ? entriesAt(
        d.doc,
        ['mcpServers'],
        { file, scope: 'project', folder, workspaceFolder: folder, baseDir: folder, text: d.text },
        problems,
      ).map(map)
    : [];
  return { entries, problems, files: [file] };
}
