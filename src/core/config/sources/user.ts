/** The user setting `mcpHost.servers`: an object of servers handed in as a value. */
import { describeValue } from '../jsonc.js';
import { entriesAt, type SourceResult } from './entry.js';

export const USER_SETTINGS_FILE = 'settings:mcpHost.servers';

/** `baseDir` resolves relative `envFile`/`cwd` (the user's home: a setting has no folder of its own). */
export function readUserServers(value: unknown, baseDir: string): SourceResult {
  const problems: SourceResult['problems'] = [];
  if (value === undefined || value === null) return { entries: [], problems, files: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push({
      severity: 'error',
      code: 'schema',
      message: `The setting "mcpHost.servers" must be an object of servers keyed by name, but it is ${describeValue(value)}.`,
      file: USER_SETTINGS_FILE,
      jsonPath: [],
      scope: 'user',
    });
    return { entries: [], problems, files: [] };
  }
  const entries = entriesAt(
    value as Record<string, unknown>,
    [],
    { file: USER_SETTINGS_FILE, scope: 'user', baseDir },
    problems,
  );
  return { entries, problems, files: [] };
}
