/**
 * The client features as a launch plugin (launch-plugin.ts): sampling, logging, subscriptions and
 * tasks (src/core/features), the host's answers to roots and elicitation (client-handlers.ts), and,
 * once the connection is live, the log level, re-subscriptions and pings. Disposal ends the pings
 * and the task stores' expiry timers (which would otherwise keep a CLI process alive).
 */
import type { ClientFeatures } from '../../features/index.js';
import type { ClientTaskStore } from '../../features/client-task-store.js';
import type { ElicitationPort, RootsPort } from '../../host-api.js';
import type { Disposable } from '../../ports.js';
import { clientCapabilities, installQuestions } from '../client-handlers.js';
import type { LaunchPluginFactory } from '../launch-plugin.js';

export function clientFeaturesPlugin(
  features: ClientFeatures,
  ports: { roots?: RootsPort; elicitation?: ElicitationPort },
): LaunchPluginFactory {
  return (launch) => {
    const stores = new Set<ClientTaskStore>();
    let running: Disposable | undefined;
    const relate = (meta: Record<string, unknown> | undefined) => launch.calls.relatedTo(meta);
    return {
      capabilities: (caps) =>
        features.capabilities(clientCapabilities({ roots: ports.roots, elicitation: ports.elicitation }, caps)),
      setupClient: (client) => {
        const store = features.setup(launch.server, client, launch.log, relate);
        if (store) stores.add(store);
        installQuestions(client, {
          server: launch.server,
          ...(store ? { taskStore: store } : {}),
          roots: ports.roots,
          elicitation: ports.elicitation,
          log: launch.log,
          relate,
        });
      },
      connected: (conn) => {
        running = features.connected(launch.server, conn.client, launch.log, (why) => launch.unresponsive(why));
      },
      dispose: () => {
        running?.dispose();
        for (const s of stores) s.cleanup();
      },
    };
  };
}
