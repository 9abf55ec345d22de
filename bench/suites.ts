/** Every benchmark group, in the order a full run measures them. */
import { balancer } from './balancer.js';
import { calls } from './calls.js';
import { chaos } from './chaos.js';
import { flood } from './flood.js';
import { footprint } from './footprint.js';
import { gateway } from './gateway.js';
import { ide } from './ide.js';
import { sandbox } from './sandbox.js';
import { sharedServe } from './shared-serve.js';
import { scale } from './scale.js';
import { soak } from './soak.js';
import { startup } from './startup.js';
import { toolSearch } from './tool-search.js';
import { vscodeMcp } from './vscode-mcp.js';
import type { Figure } from './lib/stats.js';

/**
 * Groups added since the committed bench/results.json was run: that file is one complete run, so a
 * group joins it only with the next complete `npm run bench`, which must then empty this list
 * (test/unit/bench/results.test.ts fails while a listed group is already in the file).
 */
export const NOT_YET_IN_RESULTS: readonly string[] = [];

export const suites: [string, (quick: boolean) => Promise<Figure[]>][] = [
  ['footprint', footprint],
  ['startup', startup],
  ['calls', calls],
  ['scale', scale],
  ['ide', ide],
  ['flood', flood],
  ['tool-search', toolSearch],
  ['gateway', gateway],
  ['shared-serve', sharedServe],
  ['balancer', balancer],
  ['sandbox', sandbox],
  ['vscode', vscodeMcp],
  ['chaos', chaos],
  ['soak', soak],
];
