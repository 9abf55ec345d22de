/**
 * The `ws` package, for ws-transport.ts to `import()`: the editor bundles it apart
 * (scripts/lib/lazy-bundles.mjs), so activation does not load it for hosts without a WebSocket server.
 */
export { default as WebSocket } from 'ws';
