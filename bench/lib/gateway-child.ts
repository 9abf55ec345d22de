/**
 * The HTTP gateway in a process of its own, as it runs in the editor's extension host: a quiet host
 * with the tiny stdio server behind a `Gateway` on `GatewayHttpServer`. Prints `GATEWAY <url> <token>`
 * once it listens and stops when its stdin ends. Built beside run.cjs (scripts/bench.mjs); started by
 * gateway-over-http.ts.
 */
import { Gateway, GatewayHttpServer } from '../../src/core/gateway/index.js';
import { nullLogger } from '../../src/core/ports.js';
import { quietHost, tinyServer } from './host.js';

async function main(): Promise<void> {
  const host = quietHost();
  host.setDefinitions([tinyServer('tiny')]);
  await host.whenSettled();
  const gateway = new Gateway({ host, logger: nullLogger });
  const http = await GatewayHttpServer.start({ gateway, logger: nullLogger });
  process.stdout.write(`GATEWAY ${http.url} ${http.token}\n`);
  process.stdin.once('end', () => {
    void (async () => {
      await http.dispose();
      await gateway.dispose();
      await host.dispose();
      process.exit(0);
    })();
  });
  process.stdin.resume();
}

void main();
