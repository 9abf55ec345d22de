/**
 * The page an app lives in. The editor's webview shows this page; the app's HTML runs inside it in
 * an `<iframe sandbox="allow-scripts" srcdoc=…>`: an opaque origin with no access to the page (so
 * none to the editor's webview API), no popups, no top navigation, no forms. The page only relays
 * JSON-RPC between the frame and the extension and resizes the frame.
 *
 * The page's CSP is the app's CSP (a `srcdoc` frame inherits its parent's policy, so the page
 * cannot be stricter than the app needs, and is not looser either); the same policy is also put
 * at the top of the app's own document.
 */
import { STYLE_SOURCES } from './styles.js';

export interface AppDocumentOptions {
  /** The app's HTML as the server sent it. */
  html: string;
  /** From `buildAppCsp`. */
  csp: string;
  /** The frame's `allow` attribute (permissions the resource asked for); empty for none. */
  allow: string;
  /** Title of the page (for screen readers). */
  title: string;
  /** Draw a border around the frame (the resource's `prefersBorder`). */
  border: boolean;
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The app's HTML with the CSP meta tag first, before anything that could run. */
export function withCspMeta(html: string, csp: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const rest = doctype ? html.slice(doctype[0].length) : html;
  return `<!DOCTYPE html>${meta}${rest}`;
}

/** A nonce-free relay: the page CSP must allow the app's inline scripts anyway (see above). */
const RELAY = `
(function () {
  var vscode = acquireVsCodeApi();
  var frame = document.getElementById('app');
  window.addEventListener('message', function (e) {
    if (e.source === frame.contentWindow) {
      vscode.postMessage({ kind: 'app', message: e.data });
      return;
    }
    var d = e.data;
    if (!d || typeof d !== 'object') return;
    if (d.kind === 'to-app' && frame.contentWindow) frame.contentWindow.postMessage(d.message, '*');
    else if (d.kind === 'size' && typeof d.height === 'number' && d.height > 0) frame.style.height = Math.min(Math.ceil(d.height), 20000) + 'px';
  });
  frame.addEventListener('load', function () { vscode.postMessage({ kind: 'frame-loaded' }); });
  // The theme's values exist only here (VS Code sets them on this page): report them now and
  // whenever the theme changes them.
  var sources = __STYLE_SOURCES__;
  function reportStyles() {
    var css = getComputedStyle(document.documentElement);
    var vars = {};
    for (var key in sources) vars[key] = css.getPropertyValue(sources[key]).trim();
    vscode.postMessage({ kind: 'styles', variables: vars });
  }
  reportStyles();
  new MutationObserver(reportStyles).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  new MutationObserver(reportStyles).observe(document.body, { attributes: true, attributeFilter: ['class'] });
})();
`.replace('__STYLE_SOURCES__', JSON.stringify(STYLE_SOURCES));

export function appDocument(o: AppDocumentOptions): string {
  const border = o.border ? '1px solid var(--vscode-panel-border, #8884)' : '0';
  const allow = o.allow ? ` allow="${escapeAttribute(o.allow)}"` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(o.csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(o.title)}</title>
<style>
  html, body { margin: 0; padding: 0; background: var(--vscode-editor-background); }
  iframe { display: block; width: 100%; height: 100vh; border: ${border}; box-sizing: border-box; }
</style>
</head>
<body>
<iframe id="app" title="${escapeAttribute(o.title)}" sandbox="allow-scripts"${allow} srcdoc="${escapeAttribute(withCspMeta(o.html, o.csp))}"></iframe>
<script>${RELAY}</script>
</body>
</html>`;
}
