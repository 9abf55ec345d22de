/**
 * The authorization URL comes from a remote server's metadata, so it is hostile input: it must
 * never reach an OS opener as `file:`, `smb:`, a custom scheme or a string a shell could read
 * (`cmd /c start` behind CVE-2025-6514). Only `https:` (and `http:` to this machine) is opened,
 * and what is opened is the URL as parsed and re-serialised, never the string as received.
 */
import { AuthError } from './errors.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** True for `https:` URLs and `http:` ones on loopback. */
export function isOpenableUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname));
}

/**
 * The URL to hand to a browser opener, re-serialised; a refused one is an AuthError naming the
 * server (or, without a server, the opener that refused it).
 */
export function openableUrl(url: string | URL, who = 'The sign-in'): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new AuthError(
      'unsafe-url',
      `${who}: the authorization server gave an authorization URL that is not a valid URL; it was not opened.`,
    );
  }
  if (!isOpenableUrl(parsed)) {
    const scheme = parsed.protocol.replace(/[^a-z0-9+.-]/gi, '').slice(0, 20);
    throw new AuthError(
      'unsafe-url',
      `${who}: the authorization server asked to open a "${scheme}:" URL; only https (and http to this machine) is opened. Check the server's OAuth metadata.`,
    );
  }
  return parsed.href;
}
