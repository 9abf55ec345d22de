export { IdeServer, type IdeServerOptions, type AtMention } from './server.js';
export type * from './editor-port.js';
export { findTextRange } from './text-range.js';
export { AUTH_HEADER } from './auth.js';
export { defaultLockDir, type LockFileContent } from './lock-file.js';

// Used by the editor and the CLI, which import only this module (scripts/lib/import-layers.mjs).
export { GeminiIdeServer } from './gemini/server.js';
