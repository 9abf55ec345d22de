/**
 * The Content Security Policy of an app's frame, built from what its UI resource declares. With
 * nothing declared the app gets no network at all: inline script and style, `data:`/`blob:`
 * images and media, nothing else. Declared domains open exactly the directives the spec maps them
 * to; anything that is not a plain source expression (keywords, `*`, separators) is refused, so a
 * server cannot smuggle `'unsafe-eval'` or a second directive into the policy.
 *
 * Code the app made itself runs too: `blob:` and `data:` scripts and `blob:` workers (pdf.js, in
 * the official PDF viewer, starts its worker from a `blob:` URL and falls back to a `data:` module).
 * Those are local sources, not network access: a worker from a `blob:` URL inherits the frame's
 * policy, so its `connect-src` is the frame's. `'self'` stays out of `worker-src`: the frame's
 * origin is opaque and the page's is the editor's webview, which serves no app code.
 *
 * The frame runs on the user's machine, so a declared source may not point back into it or its
 * network: loopback, link-local (cloud metadata at 169.254.169.254), private and CGNAT addresses,
 * `localhost`, single-label and `.local`/`.internal`/`.lan`/`.home.arpa` names are refused unless
 * the app's own server is local and the user allowed it (`allowLocal`). Port wildcards are
 * refused, and so is a wildcard directly under a public suffix (`*.com`, `*.co.uk`,
 * `*.github.io`). The suffix list is a small built-in one (every single label, common two-label
 * country and hosting suffixes), not the full Public Suffix List: a wildcard under a rarer shared
 * suffix still passes.
 */
import type { AppCspDeclaration } from './meta.js';

/** scheme://host[:port][/path], or a host with an optional `*.` wildcard; no bare `*`. */
const SOURCE =
  /^(?:(?:https?|wss?):\/\/)?(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::(?:\d{1,5}|\*))?(?:\/[^\s;,'"]*)?$/;

/** Suffixes under which anyone can register a name; a wildcard directly under one is refused. Single labels always are. */
const PUBLIC_SUFFIXES = new Set([
  ...['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ne', 'or'].flatMap((l) =>
    ['uk', 'jp', 'au', 'nz', 'br', 'cn', 'in', 'za', 'kr', 'tw', 'hk', 'sg', 'mx', 'ar', 'tr', 'il'].map(
      (cc) => `${l}.${cc}`,
    ),
  ),
  'github.io',
  'gitlab.io',
  'pages.dev',
  'workers.dev',
  'vercel.app',
  'netlify.app',
  'web.app',
  'firebaseapp.com',
  'herokuapp.com',
  'appspot.com',
  'azurewebsites.net',
  'cloudfront.net',
  'amazonaws.com',
  's3.amazonaws.com',
  'blogspot.com',
  'ngrok.io',
  'ngrok-free.app',
  'trycloudflare.com',
  'onrender.com',
  'fly.dev',
  'railway.app',
]);

const LOCAL_NAME = /(^|\.)(localhost|local|internal|lan|home\.arpa|intranet|corp)$/;

/** True for an IPv4 address (canonical dotted form) in loopback, private, link-local, CGNAT or "this network". */
function isLocalIpv4(host: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    a >= 224
  );
}

export interface CspOptions {
  /** The app's own server runs on this machine and the user allowed its app to reach local services. */
  allowLocal?: boolean;
}

/** Why a well-formed source is still refused, or undefined when it may go into the policy. */
function refusal(source: string, o: CspOptions): string | undefined {
  const m = /^(?:([a-z]+):\/\/)?(\*\.)?([^:/]+)(?::(\d{1,5}|\*))?/i.exec(source);
  if (!m) return 'not a source';
  if (m[4] === '*') return 'port wildcard';
  let host: string;
  try {
    // WHATWG host parsing, as the browser does it: `0x7f.1` and `2130706433` are 127.0.0.1.
    host = new URL(`http://${m[3]!}`).hostname.toLowerCase();
  } catch {
    return 'not a host';
  }
  const local = isLocalIpv4(host) || LOCAL_NAME.test(host) || !host.includes('.');
  if (m[2]) {
    if (!host.includes('.') || PUBLIC_SUFFIXES.has(host)) return 'wildcard under a public suffix';
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return 'wildcard on an address';
  }
  if (local && !o.allowLocal) return 'this machine or its local network';
  return undefined;
}

export interface BuiltCsp {
  policy: string;
  /** Declared sources that were not valid source expressions (left out of the policy). */
  rejected: string[];
}

function sources(list: string[] | undefined, rejected: string[], o: CspOptions): string[] {
  const out: string[] = [];
  for (const s of list ?? []) {
    if (SOURCE.test(s) && refusal(s, o) === undefined) {
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

export function buildAppCsp(declared: AppCspDeclaration | undefined, o: CspOptions = {}): BuiltCsp {
  const rejected: string[] = [];
  const connect = sources(declared?.connectDomains, rejected, o);
  const resource = sources(declared?.resourceDomains, rejected, o);
  const frame = sources(declared?.frameDomains, rejected, o);
  const base = sources(declared?.baseUriDomains, rejected, o);
  const policy = [
    "default-src 'none'",
    directive('script-src', ["'unsafe-inline'", 'blob:', 'data:'], resource),
    directive('style-src', ["'unsafe-inline'"], resource),
    directive('img-src', ['data:', 'blob:'], resource),
    directive('font-src', ['data:'], resource),
    directive('media-src', ['data:', 'blob:'], resource),
    directive('connect-src', [], connect),
    directive('frame-src', [], frame),
    directive('base-uri', [], base),
    "form-action 'none'",
    "object-src 'none'",
    'worker-src blob:',
  ].join('; ');
  return { policy, rejected };
}
