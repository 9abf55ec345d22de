/**
 * The hook between admission's sandbox plan and the stdio transport: the command line rewritten to
 * run inside the sandbox, the refusals the sandbox reports written to the server's log, and the
 * file-system refusals the server itself prints (bubblewrap's read-only binds surface as EROFS,
 * hidden paths as ENOENT, which cannot be told apart from a missing file) counted as blocks.
 */
import { mkdirSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { ServerDefinition } from '../config/types.js';
import type { Logger } from '../ports.js';
import { describePlan, type SandboxPlan } from '../config/sandbox-settings.js';
import { concretePath } from './allow.js';
import { sharedSandboxRuntime, type SandboxBlock, type SandboxRuntime } from './runtime.js';

export interface SandboxSpawn {
  /** `spec.env` is the server's environment; the returned `env` is the wrapper's whole one. */
  prepareSpawn: (spec: {
    file: string;
    args: string[];
    env: Record<string, string>;
  }) => Promise<{ file: string; args: string[]; env: Record<string, string>; release: () => void }>;
  /** The logger the transport writes stderr to: it notices read-only file system errors. */
  logger: Logger;
}

const EROFS = /(?:EROFS|read-only file system)[^'"\n]*['"]([^'"\n]+)['"]/i;
const QUOTED_PATH = /['"](\/[^'"\n]+)['"]/g;

function inside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * A refused write the server printed. The line is the server's own text, so it names only what it
 * names: a path that is not concrete is no block at all, and one inside a folder it may write
 * (refused there only by a protected file, or not refused at all) is logged but never offered.
 */
export function stderrWriteBlock(
  server: string,
  plan: SandboxPlan,
  path: string,
  line: string,
): SandboxBlock | undefined {
  const target = concretePath(path);
  if (!target) return undefined;
  const writable = plan.filesystem.allowWrite.some((w) => inside(target, w));
  return { server, kind: 'file', target, line, ...(writable ? { offer: false as const } : {}) };
}

/** What the log says for a refusal; the extension offers "Allow" on lines of this shape. */
export function blockLine(b: SandboxBlock): string {
  return b.kind === 'network'
    ? `[sandbox] blocked a network connection to ${b.target}`
    : b.kind === 'read'
      ? `[sandbox] blocked a read of ${b.target}`
      : `[sandbox] blocked a write to ${b.target}`;
}

export function sandboxSpawnFor(
  def: ServerDefinition,
  logger: Logger,
  runtime: SandboxRuntime = sharedSandboxRuntime(),
): SandboxSpawn | undefined {
  const plan = def.admission?.run ? def.admission.sandbox : undefined;
  if (!plan || def.config.type !== 'stdio') return undefined;
  const seen = (line: string) => {
    const m = EROFS.exec(line);
    if (m) {
      const block = stderrWriteBlock(def.name, plan, m[1], line);
      return block && runtime.noteBlock(block);
    }
    for (const q of line.matchAll(QUOTED_PATH)) {
      if (plan.filesystem.denyRead.some((d) => inside(q[1], d)))
        return runtime.noteBlock({ server: def.name, kind: 'read', target: q[1], line });
    }
  };
  const watching: Logger = {
    trace: (m) => logger.trace(m),
    debug: (m) => logger.debug(m),
    info: (m) => (seen(m), logger.info(m)),
    warn: (m) => (seen(m), logger.warn(m)),
    error: (m) => (seen(m), logger.error(m)),
  };
  return {
    logger: watching,
    prepareSpawn: async (spec) => {
      for (const d of plan.filesystem.privateDirs ?? []) mkdirSync(d, { recursive: true, mode: 0o700 });
      const { env: serverEnv, ...line } = spec;
      const { spec: wrapped, env, dropped, release } = await runtime.wrap(def.name, plan, line, serverEnv);
      if (dropped.length)
        logger.warn(`[sandbox] not passed to the server (not a shell variable name): ${dropped.join(', ')}`);
      const off = runtime.onBlocked((b) => {
        if (b.server === def.name) logger.warn(blockLine(b));
      });
      logger.info(describePlan(plan).join('; '));
      const a = await runtime.check();
      for (const w of a.ok ? a.weaker : []) logger.warn(`[sandbox] runs weaker than it should here: ${w}`);
      return {
        ...wrapped,
        env,
        release: () => {
          off();
          release();
        },
      };
    },
  };
}

/** Starts the sandbox's proxy and runtime as soon as a sandboxed server is configured. */
export function prewarmSandboxFor(
  defs: readonly ServerDefinition[],
  runtime: SandboxRuntime = sharedSandboxRuntime(),
): void {
  if (defs.some((d) => d.admission?.run && d.admission.sandbox && d.config.type === 'stdio')) runtime.prewarm();
}
