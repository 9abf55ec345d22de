/** Shared by the host tests: wait on the host's change events, never on time, always with a deadline. */
import type { ServerContext } from '../../../src/core/connection/server-context.js';
import { readSettings } from '../../../src/core/connection/settings.js';
import { clientFeaturesPlugin } from '../../../src/core/connection/plugins/client-features.js';
import { ClientFeatures, type FeatureOptions } from '../../../src/core/features/index.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import type { FakeClock } from '../../support/fakes.js';

export { untilServer as until } from '../../support/wait.js';

/**
 * What the host gives each server, built without a host: for the tests of one server's objects
 * (server-connection.ts, launch.ts). No pools, no eras, no other servers; the client features are
 * the one plugin of every launch.
 */
export function serverContext(
  options: HostOptions & { clock: FakeClock },
  features: FeatureOptions = {},
): ServerContext {
  return {
    settings: readSettings(options),
    clock: options.clock,
    options,
    clientInfo: { name: 'unit-test', version: '1' },
    plugins: [clientFeaturesPlugin(new ClientFeatures(features, options.clock), options)],
    poolFor: () => undefined,
    takenNames: () => new Set(),
    changed: () => {},
    attemptEnded: () => {},
  };
}
