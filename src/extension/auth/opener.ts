/**
 * `env.openExternal` for authorization URLs, kept free of the `vscode` import so it is tested on
 * plain Node. Only https (http on loopback) is opened: the URL comes from a remote server's
 * metadata, and openExternal hands `file:` or `smb:` URLs to the OS.
 */
import { openableUrl } from '../../core/auth/index.js';
import type { BrowserOpener } from '../../core/ports.js';

/**
 * The checked, re-serialised string is passed rather than a vscode.Uri on purpose: the extension
 * host forwards a string verbatim, whereas a vscode.Uri is re-serialised with `=`/`&`/`+` in the
 * query percent-encoded, which breaks the authorization URL (scope, redirect_uri, resource).
 */
export function externalOpener(openExternal: (target: string) => Thenable<boolean>): BrowserOpener {
  return {
    open: async (url) => openExternal(openableUrl(url, 'Opening the browser')),
  };
}
