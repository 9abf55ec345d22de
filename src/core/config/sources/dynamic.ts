/** The dynamic scope: servers registered at run time (other extensions, the host itself). */
import type { InProcessServerConfig } from '../types.js';
import type { RawEntry, SourceResult } from './entry.js';

/** A server handed in at run time: a plain entry (same shape as in files) or an in-process server. */
export interface DynamicServer {
  name: string;
  config: unknown;
  /** Who registered it (an extension id), shown as the source: `dynamic:<owner>`. */
  owner?: string;
}

export function isInProcess(v: unknown): v is InProcessServerConfig {
  return !!v && typeof v === 'object' && (v as { type?: unknown }).type === 'inprocess';
}

export function readDynamic(
  servers: readonly DynamicServer[],
  baseDir: string,
  onlyFolder: string | undefined,
): SourceResult {
  const entries: RawEntry[] = servers.map((s) => ({
    name: s.name,
    value: s.config,
    source: { scope: 'dynamic', file: `dynamic:${s.owner ?? 'api'}`, jsonPath: [s.name] },
    workspaceFolder: onlyFolder,
    baseDir,
    inProcess: isInProcess(s.config),
  }));
  return { entries, problems: [], files: [] };
}
