/**
 * The environment variables that mark a stdio server's processes as this host's: the tree stop
 * (connection/process-tree.ts) finds a server's tree by one, the host-death watcher
 * (connection/host-reaper.ts) finds every server of a dead host by the other, and the sandbox
 * (sandbox/runtime.ts) passes both through to what it wraps. Named here, below all three, so the
 * sandbox need not import the connection it runs under (ARCHITECTURE.md, "Layers").
 */

/** Set in every stdio server's environment to this process's value. */
export const OWNER_ENV = 'MCP_HOST_OWNER';

/**
 * Set in every stdio server's environment to a random value of its own: processes inherit their
 * environment, so the server's whole tree carries it, however it detached. It names nothing (no
 * server name, path or secret): it only has to be unguessable so no other process is taken for ours.
 */
export const INSTANCE_ENV = 'MCP_HOST_SERVER_INSTANCE';
