/**
 * One process of approvals-race.test.ts: approves `count` servers named `<prefix>-<i>`, one write
 * each, after the test says go on stdin (so every process writes at the same time).
 * Run as `node --import tsx approve-burst.ts <workspace> <prefix> <count>`; MCP_HOST_CONFIG_DIR set.
 */
import { sharedServerApprovals } from '../../../src/core/config/approvals-file.js';

const [workspace, prefix, count] = process.argv.slice(2) as [string, string, string];
const approvals = sharedServerApprovals(workspace);
process.stdout.write('ready\n');
process.stdin.once('data', () => {
  void (async () => {
    for (let i = 0; i < Number(count); i++) {
      const name = `${prefix}-${i}`;
      await approvals.approve([
        {
          name,
          config: { type: 'stdio', command: 'srv', args: [] },
          source: { scope: 'project', file: `${workspace}/.mcp.json`, jsonPath: ['mcpServers', name] },
          signature: `stdio:${name}`,
          hash: `h-${name}`,
          approvalHash: `h-${name}`,
        },
      ]);
    }
    process.stdout.write('done\n');
    process.exit(0);
  })();
});
