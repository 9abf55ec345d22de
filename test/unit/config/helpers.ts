/** Temp folders with real config files for the config tests, removed after each test. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import type { InputResolver } from '../../../src/core/ports.js';
import type { ConfigProblem, LoadedConfig } from '../../../src/core/config/types.js';

/** Creates a temp dir with the given files (relative path → content) and removes it when the test ends. */
export async function tempTree(t: TestContext, files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-host-config-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFiles(dir, files);
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, content);
  }
}

export const json = (v: unknown): string => JSON.stringify(v, null, 2);

/** An InputResolver answering from a map and recording what it was asked. */
export function fakeInputs(values: Record<string, string | undefined>): InputResolver & {
  calls: { id: string; file: string; description?: string; password?: boolean }[];
  declarations: unknown[];
} {
  const calls: { id: string; file: string; description?: string; password?: boolean }[] = [];
  const declarations: unknown[] = [];
  return {
    calls,
    declarations,
    resolve(id, { declaration, ...context }) {
      calls.push({ id, ...context });
      declarations.push(declaration);
      return Promise.resolve(values[id]);
    },
  };
}

export function names(c: LoadedConfig): string[] {
  return c.servers.map((s) => s.name);
}

/** Names of the servers admission lets run (held ones stay in `servers`, with their reason). */
export function running(c: LoadedConfig): string[] {
  return c.servers.filter((s) => s.admission?.run !== false).map((s) => s.name);
}

export function byCode(c: LoadedConfig, code: string): ConfigProblem[] {
  return c.problems.filter((p) => p.code === code);
}

export function server(c: LoadedConfig, name: string) {
  const s = c.servers.find((d) => d.name === name);
  if (!s)
    throw new Error(
      `no server ${name}; have ${names(c).join(', ')}; problems: ${c.problems.map((p) => p.message).join(' | ')}`,
    );
  return s;
}
