/** Every benchmark group, in the order a full run measures them. */
import { calls } from './calls.js';
import { chaos } from './chaos.js';
import { flood } from './flood.js';
import { footprint } from './footprint.js';
import { ide } from './ide.js';
import { scale } from './scale.js';
import { soak } from './soak.js';
import { startup } from './startup.js';
import type { Figure } from './lib/stats.js';

export const suites: [string, (quick: boolean) => Promise<Figure[]>][] = [
  ['footprint', footprint],
  ['startup', startup],
  ['calls', calls],
  ['scale', scale],
  ['ide', ide],
  ['flood', flood],
  ['chaos', chaos],
  ['soak', soak],
];
