/**
 * "Allow in sandbox": what a reported refusal becomes in the server's own config entry. A network
 * block adds its host to the entry's `sandbox.network.allowedDomains`, a refused write adds the
 * file's folder to `sandbox.filesystem.allowWrite`. Reads of hidden paths are not offered: the
 * credential stores stay hidden whatever a config says.
 *
 * What a block names comes from the server (the host it asked the proxy for, the lines it prints on
 * stderr), so only a concrete host or path is ever offered: never a pattern (`*`, `*.x`), nothing
 * malformed, never `/`, and a folder above the workspace or the home folder only with the label
 * saying so. The parsers (proxy.ts, runtime.ts, spawn.ts) check with the same functions.
 */
import { isIP } from 'node:net';
import { dirname, isAbsolute, posix, relative } from 'node:path';
import type { SandboxBlock } from './block.js';
import type { SandboxSettings } from '../config/sandbox-settings.js';

export interface AllowChoice {
  label: string;
  /** The entry's new `sandbox` value. */
  sandbox: SandboxSettings;
}

/** Folders the label measures an offered one against (the server's plan's writable folders, home). */
export interface AllowContext {
  folders?: readonly string[];
  home?: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** `host` as an allow rule may name it (lower case, no trailing dot), or undefined: never a pattern. */
export function concreteHost(host: string): string | undefined {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (isIP(h)) return h;
  if (h.length === 0 || h.length > 253) return undefined;
  const labels = h.split('.');
  if (!labels.every((l) => LABEL.test(l))) return undefined;
  // All digits but not an IPv4 address (`999.1.1.1`, `1.2.3`): resolvers read these as numbers.
  if (labels.every((l) => /^\d+$/.test(l))) return undefined;
  return h;
}

/** The concrete host of `host:port` (IPv6 in brackets), or undefined when either part is not one. */
export function hostOf(target: string): string | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(target);
  if (!m) return undefined;
  const port = m[3] === undefined ? undefined : Number(m[3]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const host = m[1] ?? m[2];
  if (m[1] !== undefined && isIP(host) !== 6) return undefined;
  return concreteHost(host);
}

/**
 * `p` when it is an absolute, normalised path without glob or control characters (the runtime reads
 * `*`, `?`, `[` and `{` in rules as patterns), else undefined.
 */
export function concretePath(p: string): string | undefined {
  if (!isAbsolute(p) || !p.startsWith('/') || p.length > 4096) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f*?[\]{}]/.test(p)) return undefined;
  if (posix.normalize(p) !== p || (p.length > 1 && p.endsWith('/'))) return undefined;
  return p;
}

function inside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** The label for allowing writes in `dir`, saying so when it covers the workspace or home. */
function writeLabel(dir: string, ctx: AllowContext): string {
  const covered = (ctx.folders ?? []).filter((f) => f !== dir && inside(f, dir));
  if (covered.length)
    return `Allow writing in ${dir} (above the workspace: everything under it, ${covered[0]} included)`;
  if (ctx.home && dir !== ctx.home && inside(ctx.home, dir))
    return `Allow writing in ${dir} (above your home folder: all of it)`;
  if (ctx.home && dir === ctx.home) return `Allow writing in ${dir} (your whole home folder)`;
  return `Allow writing in ${dir}`;
}

export function allowChoice(block: SandboxBlock, current: unknown, ctx: AllowContext = {}): AllowChoice | undefined {
  if (block.offer === false) return undefined;
  const base = (current && typeof current === 'object' ? current : {}) as SandboxSettings;
  const add = (xs: string[] | undefined, x: string) => (xs?.includes(x) ? xs : [...(xs ?? []), x]);
  if (block.kind === 'network') {
    const host = hostOf(block.target);
    if (!host) return undefined;
    return {
      label: `Allow network access to ${host}`,
      sandbox: { ...base, network: { ...base.network, allowedDomains: add(base.network?.allowedDomains, host) } },
    };
  }
  if (block.kind === 'file') {
    const target = concretePath(block.target);
    const dir = target && dirname(target);
    if (!dir || dir === '/') return undefined;
    return {
      label: writeLabel(dir, ctx),
      sandbox: { ...base, filesystem: { ...base.filesystem, allowWrite: add(base.filesystem?.allowWrite, dir) } },
    };
  }
  return undefined;
}
