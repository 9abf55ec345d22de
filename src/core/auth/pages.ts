/** The small pages the browser shows after the redirect. Nothing from the request is echoed unescaped. */

function escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.3rem}</style>
</head><body><h1>${escape(title)}</h1><p>${escape(body)}</p></body></html>`;
}

export function successPage(): string {
  return page('Signed in to MCP Host', 'You can close this tab and return to your editor or terminal.');
}

export function errorPage(reason: string): string {
  return page(
    'MCP Host sign-in failed',
    `${reason} You can close this tab; the editor or terminal shows what to do next.`,
  );
}
