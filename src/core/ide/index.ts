export { IdeServer, type IdeServerOptions, type AtMention } from './server.js';
export type * from './editor-port.js';
export { findTextRange } from './text-range.js';
export { AUTH_HEADER } from './auth.js';
export { defaultLockDir, type LockFileContent } from './lock-file.js';
