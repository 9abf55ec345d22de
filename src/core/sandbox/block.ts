/**
 * A network connection or file access the sandbox refused. In a file of its own: the runtime
 * reports it and allow.ts, which the runtime's parsers use, offers it.
 */
export interface SandboxBlock {
  server: string;
  /** `file`: a write refused; `read`: a hidden path the server tried to open. */
  kind: 'network' | 'file' | 'read';
  /** `host:port` for network, the path for files. */
  target: string;
  line: string;
  /**
   * false: refused, but nothing a rule could allow, so "Allow in Sandbox" offers nothing (a malformed
   * host, an address the proxy never connects to, a write the workspace rules already cover).
   */
  offer?: false;
}
