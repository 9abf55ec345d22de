import type { Scope } from './scope.js';

/** Something wrong with a config file or entry, with where it is. */
export interface ConfigProblem {
  severity: 'error' | 'warning';
  /** Machine-readable code: 'invalid-json', 'schema', 'unresolved-variable', 'policy-denied', 'shadowed', ... */
  code: string;
  message: string;
  file: string;
  jsonPath: (string | number)[];
  server?: string;
  scope?: Scope;
  /** 1-based position in the file, when the problem comes from a file's text. */
  line?: number;
  column?: number;
}
