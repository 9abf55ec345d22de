/**
 * The workbench's document schemes: registered at activation (lazy/workbench.ts), so documents VS
 * Code restores after a reload find their provider, and served by the inspector's bundle.
 */
export const DETAILS_SCHEME = 'mcp-host-details';
export const RESPONSE_SCHEME = 'mcp-host-response';
