/** Fetches an app's `ui://` resource through the host and checks it is an app. */
import { readFile, stat } from 'node:fs/promises';
import type { ResourceReadResult } from '../host-data.js';
import { HostError } from '../errors.js';
import { APP_MIME_TYPE, resourceUiOf, type AppResourceMeta } from './meta.js';

/** Larger than any sensible single-page app; a bound so a server cannot make us hold gigabytes. */
export const MAX_APP_HTML_BYTES = 5 * 1024 * 1024;

export interface AppResource {
  uri: string;
  html: string;
  meta: AppResourceMeta;
}

function isAppMime(mime: string | undefined): boolean {
  if (mime === undefined) return false;
  const m = mime.toLowerCase().replace(/\s+/g, '');
  return m === APP_MIME_TYPE || m.startsWith('text/html;');
}

export async function loadAppResource(
  read: (uri: string) => Promise<ResourceReadResult>,
  uri: string,
): Promise<AppResource> {
  if (!uri.startsWith('ui://')) throw new HostError('bad-app', `an app's resource must be a ui:// URI, not ${uri}`);
  const r = await read(uri);
  const item = r.contents.find((c) => c.uri === uri) ?? r.contents[0];
  if (!item) throw new HostError('bad-app', `${uri} returned no content`);
  if (!isAppMime(item.mimeType) && item.mimeType !== 'text/html') {
    throw new HostError(
      'bad-app',
      `${uri} is ${item.mimeType ?? 'of no declared type'}, not an app (${APP_MIME_TYPE})`,
    );
  }
  let html: string;
  if (item.text !== undefined) {
    if (Buffer.byteLength(item.text, 'utf8') > MAX_APP_HTML_BYTES)
      throw new HostError('bad-app', `${uri} is larger than ${MAX_APP_HTML_BYTES} bytes`);
    html = item.text;
  } else if (item.blobPath) {
    if ((await stat(item.blobPath)).size > MAX_APP_HTML_BYTES)
      throw new HostError('bad-app', `${uri} is larger than ${MAX_APP_HTML_BYTES} bytes`);
    html = await readFile(item.blobPath, 'utf8');
  } else {
    throw new HostError('bad-app', `${uri} has neither text nor blob content`);
  }
  return { uri, html, meta: resourceUiOf(item.meta) };
}
