/**
 * How a launch makes its transport (launch.ts): the test port's (HostOptions.transportFor), or
 * the real one with the server's OAuth provider, sandbox and base environment.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/types.js';
import type { HostOptions } from '../host-api.js';
import type { Logger } from '../ports.js';
import { sandboxSpawnFor } from '../sandbox/spawn.js';
import { inheritedEnv } from './inherited-env.js';
import { createTransport, type CreatedTransport, type TransportContext } from './transports.js';

/** The transport maker of one launch of `launched`; its OAuth provider is asked for once, for the definition as configured. */
export function transportMaker(
  options: HostOptions,
  log: Logger,
  launched: ServerDefinition,
): (def: ServerDefinition, wrapFetch: TransportContext['wrapFetch']) => CreatedTransport {
  const local = launched.config.type === 'stdio' || launched.config.type === 'inprocess';
  let auth: { provider: OAuthClientProvider | undefined } | undefined;
  return (def, wrapFetch) => {
    const test = options.transportFor?.(def);
    if (test) return test;
    auth ??= { provider: local ? undefined : options.authProvider?.(launched) };
    return createTransport(def.config, {
      logger: log,
      authProvider: auth.provider,
      ...(wrapFetch ? { wrapFetch } : {}),
      sandbox: sandboxSpawnFor(def, log, options.sandbox),
      ...(options.serverEnv ? { baseEnv: inheritedEnv(options.serverEnv) } : {}),
    });
  };
}
