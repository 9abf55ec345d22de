/**
 * The Content Security Policy of an app's frame, built from what its UI resource declares. With
 * nothing declared the app gets no network at all: inline script and style, `data:`/`blob:`
 * images and media, nothing else. Declared domains open exactly the directives the spec maps them
 * to; anything that is not a plain source expression (keywords, `*`, separators) is refused, so a
 * server cannot smuggle `'unsafe-eval'` or a second directive into the policy.
 */
import type { AppCspDeclaration } from './meta.js';

/** scheme://host[:port][/path], or a host with an optional `*.` wildcard; no bare `*`. */
const SOURCE =
  /^(?:(?:https?|wss?):\/\/)?(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::(?:\d{1,5}|\*))?(?:\/[^\s;,'"]*)?$/;

export interface BuiltCsp {
  policy: string;
  /** Declared sources that were not valid source expressions (left out of the policy). */
  rejected: string[];
}

function sources(list: string[] | undefined, rejected: string[]): string[] {
  const out: string[] = [];
  for (const s of list ?? []) {
    if (SOURCE.test(s)) {
      if (!out.includes(s)) out.push(s);
    } else {
      rejected.push(s);
    }
  }
  return out;
}

function directive(name: string, base: string[], extra: string[]): string {
  const all = [...base, ...extra];
  return `${name} ${all.length > 0 ? all.join(' ') : "'none'"}`;
}

export function buildAppCsp(declared: AppCspDeclaration | undefined): BuiltCsp {
  const rejected: string[] = [];
  const connect = sources(declared?.connectDomains, rejected);
  const resource = sources(declared?.resourceDomains, rejected);
  const frame = sources(declared?.frameDomains, rejected);
  const base = sources(declared?.baseUriDomains, rejected);
  const policy = [
    "default-src 'none'",
    directive('script-src', ["'unsafe-inline'"], resource),
    directive('style-src', ["'unsafe-inline'"], resource),
    directive('img-src', ['data:', 'blob:'], resource),
    directive('font-src', ['data:'], resource),
    directive('media-src', ['data:', 'blob:'], resource),
    directive('connect-src', [], connect),
    directive('frame-src', [], frame),
    directive('base-uri', [], base),
    "form-action 'none'",
    "object-src 'none'",
    "worker-src 'none'",
  ].join('; ');
  return { policy, rejected };
}
