/** Every benchmark group, in the order a full run measures them. */
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
  ['sandbox', sandbox],
  ['vscode', vscodeMcp],
  ['chaos', chaos],
  ['soak', soak],
];
