/**
 * Where a run's figures go. bench/results.json is the record the README's table comes from, so it
 * only ever holds one complete run on one machine: a `--quick` smoke run, a `--only` run or a run in
 * which a group failed writes its figures beside it (bench/.tmp/, not committed) instead.
 */
export interface RunKind {
  quick: boolean;
  only: ReadonlySet<string> | undefined;
  failedGroups: number;
}

export const COMPLETE_RESULTS = 'bench/results.json';
export const PARTIAL_RESULTS = 'bench/.tmp/results-partial.json';

export function resultsFile(run: RunKind): { path: string; complete: boolean } {
  const complete = !run.quick && !run.only && run.failedGroups === 0;
  return { path: complete ? COMPLETE_RESULTS : PARTIAL_RESULTS, complete };
}
