/**
 * "Allow in sandbox": what a reported refusal becomes in the server's own config entry. A network
 * block adds its host to the entry's `sandbox.network.allowedDomains`, a refused write adds the
 * file's folder to `sandbox.filesystem.allowWrite`. Reads of hidden paths are not offered: the
 * credential stores stay hidden whatever a config says.
 */
import { dirname } from 'node:path';
import type { SandboxBlock } from './runtime.js';
import type { SandboxSettings } from './settings.js';

export interface AllowChoice {
  label: string;
  /** The entry's new `sandbox` value. */
  sandbox: SandboxSettings;
}

/** The host of `host:port` (IPv6 in brackets kept as written inside). */
export function hostOf(target: string): string {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(target);
  if (m) return m[1];
  return target.replace(/:\d+$/, '');
}

export function allowChoice(block: SandboxBlock, current: unknown): AllowChoice | undefined {
  const base = (current && typeof current === 'object' ? current : {}) as SandboxSettings;
  const add = (xs: string[] | undefined, x: string) => (xs?.includes(x) ? xs : [...(xs ?? []), x]);
  if (block.kind === 'network') {
    const host = hostOf(block.target);
    return {
      label: `Allow network access to ${host}`,
      sandbox: { ...base, network: { ...base.network, allowedDomains: add(base.network?.allowedDomains, host) } },
    };
  }
  if (block.kind === 'file') {
    const dir = dirname(block.target);
    return {
      label: `Allow writing in ${dir}`,
      sandbox: { ...base, filesystem: { ...base.filesystem, allowWrite: add(base.filesystem?.allowWrite, dir) } },
    };
  }
  return undefined;
}
