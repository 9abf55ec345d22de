/** The managed (administrator) file: `mcpServers` plus optional allow/deny policy. */
import { dirname } from 'node:path';
import { parsePolicy, type Policy } from '../policy.js';
import { entriesAt, readDocument, type SourceResult } from './entry.js';

export async function readManaged(file: string): Promise<SourceResult & { policy?: Policy }> {
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
  return { entries, problems, files: [file], policy };
}
