export { IdeServer, type IdeServerOptions, type AtMention } from './server.js';
export type * from './editorPort.js';
export { findTextRange } from './textRange.js';
export { AUTH_HEADER } from './auth.js';
export { defaultLockDir, type LockFileContent } from './lockFile.js';
