/** The managed (administrator) file: `mcpServers` plus optional allow/deny policy. */
import { dirname } from 'node:path';
import { parsePolicy, type Policy } from '../policy.js';
import { entriesAt, readDocument, type RawEntry, type SourceResult } from './entry.js';
import { TEAM_GATEWAY_KEY, teamGatewayEntry } from './team-gateway.js';

/**
 * `teamGateway`: the entry made from it (not among `entries`: load.ts picks one team gateway among
 * the files and the setting), or `null` when the file names one that is broken, so the user's
 * setting does not take its place.
 */
export async function readManaged(
  file: string,
): Promise<SourceResult & { policy?: Policy; teamGateway?: RawEntry | null }> {
  // Administrators write these by hand; comments are allowed.
  const d = await readDocument(file, 'managed', true);
  if (d.missing) return { entries: [], problems: [], files: [file] };
  if (!d.doc) {
    // Fail closed: a policy that cannot be read must not turn into "everything allowed".
    return { entries: [], problems: d.problems, files: [file], policy: { file, denied: [], broken: true } };
  }
  const problems = [...d.problems];
  const { policy, problems: policyProblems } = parsePolicy(d.doc, file);
  problems.push(...policyProblems);
  const entries = entriesAt(
    d.doc,
    ['mcpServers'],
    { file, scope: 'managed', baseDir: dirname(file), text: d.text },
    problems,
  );
  const named = d.doc[TEAM_GATEWAY_KEY];
  const teamGateway =
    named === undefined
      ? undefined
      : (teamGatewayEntry(
          named,
          { file, scope: 'managed', jsonPath: [TEAM_GATEWAY_KEY], baseDir: dirname(file), text: d.text },
          problems,
        ) ?? null);
  return { entries, problems, files: [file], policy, ...(teamGateway !== undefined ? { teamGateway } : {}) };
}
