/**
 * Paths of result documents and of the resource links inside them. A link carries the server
 * and the resource URI in one base64url path segment, so it survives the Markdown preview's
 * relative-link resolution unchanged; the file name at the end is only for the tab title.
 */

/** A file-name-safe form of `name` (tab titles), at most 80 characters. */
export function safeName(name: string): string {
  const s = name.replace(/[^\w.@-]+/g, '-').replace(/^-+|-+$/g, '');
  return (s || 'result').slice(0, 80);
}

/** The path of the `id`-th result document, named `<name>.md`. */
export function resultPath(id: number, name: string): string {
  return `/r/${id}/${safeName(name)}.md`;
}

/** The path of the document that reads `uri` from `server` when opened. */
export function readPath(server: string, uri: string): string {
  const name = safeName(uri.split(/[/:]/).filter(Boolean).pop() ?? 'resource');
  return `/read/${Buffer.from(JSON.stringify([server, uri]), 'utf8').toString('base64url')}/${name}.md`;
}

/**
 * The href of a resource link inside a result document: relative to the result's own path
 * (`/r/<id>/x.md`), because the Markdown preview only follows relative links back into the editor.
 */
export function resourceLinkHref(server: string, uri: string): string {
  return `../..${readPath(server, uri)}`;
}

/** Decodes a path made by `readPath`; undefined for anything else (e.g. a hand-edited link). */
export function parseReadPath(path: string): { server: string; uri: string } | undefined {
  const m = /^\/read\/([A-Za-z0-9_-]+)\/[^/]*$/.exec(path);
  if (!m) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string')
      return { server: v[0], uri: v[1] };
  } catch {
    // not ours
  }
  return undefined;
}
