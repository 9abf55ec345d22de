/**
 * The wire names of MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865), apart from the
 * apps code: the connection declares the extension without depending on src/core/apps.
 */

/** Extension id declared in the client capabilities. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** MIME type of an app's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
