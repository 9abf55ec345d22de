// Moved to ../connection-limits.ts (shared by every loopback server); kept so existing imports resolve.
export { PendingSockets, RateLimitedLog, type ConnectionLimits } from '../connection-limits.js';
