/**
 * What a URL elicitation may open. The raw string a server sends can read differently to each
 * parser (`https://accounts.google.com\@evil.example/` is accounts.google.com to WHATWG and
 * evil.example to a lax one), so the user is shown the parsed URL's host and `href`, and exactly
 * that `href` is what gets opened: never the string as received.
 */
export type UrlTarget = { ok: true; href: string; host: string } | { ok: false; reason: string };

export function urlTarget(raw: string): UrlTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'it is not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return {
      ok: false,
      reason: `it is a ${url.protocol.replace(/[^a-z0-9+.-]/gi, '').slice(0, 20)}: URL; only http(s) pages are opened`,
    };
  return { ok: true, href: url.href, host: url.host };
}
