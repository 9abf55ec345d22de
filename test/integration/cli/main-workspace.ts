/** The folder the CLI tests share: server-everything over stdio, the errors fixture and a broken entry. */
import { after, before } from 'node:test';
import { EVERYTHING, createHarness, type Harness } from './harness.js';

export function everything(): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING, 'stdio'] };
}

/** A harness of the test file's own (its HOME, bundles shared by the run) with the folder `main`. */
export async function openMainWorkspace(): Promise<{ h: Harness; ws: string }> {
  const h = await createHarness();
  const ws = await h.workspace('main', {
    everything: everything(),
    errors: { command: process.execPath, args: [h.fixture('errors-server')] },
    broken: { command: 42 },
  });
  return { h, ws };
}

/** Opens the folder before the calling file's tests (handing it to `set`) and disposes it after them. */
export function withMainWorkspace(set: (opened: { h: Harness; ws: string }) => void): void {
  let h: Harness | undefined;
  before(async () => {
    const opened = await openMainWorkspace();
    h = opened.h;
    set(opened);
  });
  after(async () => {
    await h?.dispose();
  });
}
