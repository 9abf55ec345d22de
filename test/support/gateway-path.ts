/**
 * The gateway path this test process runs on (scripts/test.mjs runs the gateway's files twice, the
 * second time with MCP_HOST_GATEWAY_FAST_PATH=0), for the `serve` processes a test starts: they get
 * an environment of their own, without it the full-path run would start every one on the fast path.
 */
export function gatewayPathEnv(): Record<string, string> {
  const v = process.env.MCP_HOST_GATEWAY_FAST_PATH;
  return v !== undefined ? { MCP_HOST_GATEWAY_FAST_PATH: v } : {};
}
